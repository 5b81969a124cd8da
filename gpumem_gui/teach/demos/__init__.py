"""The quiz's "Show me" demos, in parts: plans, foci, the analyses that compute them and the captions that word them."""
