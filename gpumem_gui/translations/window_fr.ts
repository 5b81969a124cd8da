<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>LoadErrorPage</name>
    <message>
        <source>Cannot open this file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open another file...</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open snapshots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshots ({patterns});;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} (cannot open)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: grouping by site...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: indexing the trace...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: reading...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opening {count} files; {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaying through the allocator simulator...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU devices</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MenuWindow</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open C&amp;luster Folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Image...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Blocks CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save Report...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close &amp;Tab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;What if...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mark This Moment as A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare With Moment A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your &amp;Code and Libraries...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocator &amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cached Se&amp;gments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory by &amp;Pool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Explain the OOM or Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explain This &amp;Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Attach...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach to A&amp;ll</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach to &amp;Socket...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All &amp;Jobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU &amp;Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Detach</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guided &amp;Quiz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Checkpointing Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About gpumem-gui</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gpumem-gui {version}: PyTorch CUDA caching-allocator memory, segment by segment.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <source>GPU memory, block by block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a snapshot written by {code} (or drop it here), watch a training job that runs the probe, or learn how the caching allocator fragments memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open snapshot...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+O: a .pickle, .json or .gz from any torch since 2.0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a simulated run that ends in a fragmentation OOM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach to a job...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+A: a local process that runs gpumem_gui.probe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guided quiz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F2: fragmentation and checkpointing, each shown on a map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TeachActions</name>
    <message>
        <source>Guided quiz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checkpointing lab</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
