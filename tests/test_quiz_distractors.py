"""The wrong choices are real misconceptions (issue 34 item 5e, the teaching review's suggestion 6), not the seeds'
absurd ones; each explanation says why it is wrong, in every language; the answer keys are the seeds'."""

from __future__ import annotations

import re

from gpumem_gui.teach.quiz import LANGUAGES, find_quiz

# the seeds' distractors no learner would pick: none of them may come back
ABSURD = {
    "When the GPU physically breaks",
    "When two GPUs disagree on a result",
    "To make the model more accurate",
    "To encrypt the weights",
    "To reduce the number of GPUs needed to one",
    "Whether changing the learning rate releases GPU memory",
    "Increasing every tensor dimension",
    "Disabling the GPU cooling system",
    "Increasing the optimizer learning rate",
    "The model's training data",
    "The GPU's clock speed",
    "The font size of the logs",
    "Adding more layers",
    "Using a longer learning-rate warmup",
    "Yes; it moves the tensor automatically to NVMe",
    "Only if the tensor contains zero values",
    "Reserved memory measures only CPU RAM",
    "The difference directly proves a model accuracy error",
    "Disk space for network bandwidth",
    "To display them to the user",
    "To speed up data loading",
    "Only the model's file extension",
    "The number of labels in the dataset",
    "torch.nn.Dropout",
    "Their weights are permanently discarded",
    "They are executed only during inference",
    "Only increasing the number of labels",
    "Turning off backpropagation",
    "Replacing the model with a tokenizer",
    "Which training labels are removed",
    "Which model outputs are published",
    "Which GPU becomes the tokenizer",
}
# the misconceptions the review names, each where a learner meets it: (quiz, question, choice, words in its text)
MISCONCEPTIONS = [
    ("gpu-memory", "empty-cache", 2, "before the forward pass lowers the step's peak"),
    ("gpu-memory", "expandable-segments", 1, "empty_cache() before every forward pass"),
    ("gpu-memory", "oom-reserved", 3, "Tried to allocate"),
    ("gpu-memory", "activation-checkpointing", 1, "model.eval()"),
    ("gradient-checkpointing", "fsdp-mixed-precision", 1, "Adam, whose state costs nothing until the first step"),
    ("gradient-checkpointing", "fsdp-mixed-precision", 3, "torch.autocast alone"),
]
# words that open a wrong choice's explanation: it says at once that it is wrong
REFUTES = {
    "en": r"^(No\b|The opposite|The wrong way round|Not the lead|It does remove|The first half is right)",
    "ro": r"^(Nu\b|Dimpotrivă|Invers|Elimină într-adevăr|Prima jumătate este corectă)",
    "fr": r"^(Non\b|C'est l'inverse|Ce n'est pas la piste|Cela supprime bien|La première moitié est juste)",
}
SEED_KEYS = {"gpu-memory": [3, 1, 2, 0, 1, 2, 0, 3], "gradient-checkpointing": [0, 1, 2, 3, 0, 1, 2, 3]}


def test_no_absurd_distractor_is_left_and_the_answer_keys_are_the_seeds() -> None:
    for quiz_id, keys in SEED_KEYS.items():
        quiz = find_quiz(quiz_id)
        assert [q.answer for q in quiz.questions] == keys
        left = [c.text.en for q in quiz.questions for c in q.choices if c.text.en in ABSURD]
        assert not left, left


def test_the_reviews_misconceptions_are_distractors() -> None:
    for quiz_id, question_id, index, words in MISCONCEPTIONS:
        (question,) = [q for q in find_quiz(quiz_id).questions if q.id == question_id]
        assert index != question.answer
        assert words in question.choices[index].text.en, (question_id, index)
    (accumulate,) = [q for q in find_quiz("gradient-checkpointing").questions if q.id == "saved-activations"]
    assert "total_loss += loss" in accumulate.choices[2].explanation.en


def test_every_wrong_choice_says_why_it_is_wrong_in_every_language() -> None:
    for quiz_id in SEED_KEYS:
        for q in find_quiz(quiz_id).questions:
            for i, choice in enumerate(q.choices):
                if i == q.answer:
                    continue
                for lang in LANGUAGES:
                    text = choice.explanation[lang]
                    assert re.match(REFUTES[lang], text), f"{quiz_id} {q.id} choices[{i}].{lang}: {text[:60]!r}"
