<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>Categories</name>
    <message>
        <source>parameters</source>
        <translation>paramètres</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradients</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>état de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>activations</translation>
    </message>
    <message>
        <source>temporaries</source>
        <translation>temporaires</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <source>allocated before recording began</source>
        <translation>alloué avant le début de l&apos;enregistrement</translation>
    </message>
    <message>
        <source>library workspaces (cuBLAS, cuDNN, NCCL)</source>
        <translation>espaces de travail des bibliothèques (cuBLAS, cuDNN, NCCL)</translation>
    </message>
    <message>
        <source>weight copies made by autocast</source>
        <translation>copies de poids faites par autocast</translation>
    </message>
    <message>
        <source>inputs moved to the device</source>
        <translation>entrées déplacées sur le périphérique</translation>
    </message>
</context>
<context>
    <name>CloseButton</name>
    <message>
        <source>Close Tab</source>
        <translation>Fermer l&apos;onglet</translation>
    </message>
</context>
<context>
    <name>CompareActions</name>
    <message>
        <source>Compare: open a snapshot (fully loaded) first.</source>
        <translation>Comparer&#x202f;: ouvrez d&apos;abord un instantané (entièrement chargé).</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Compare this tab (A, at its cursor) with B:</source>
        <translation>Comparer cet onglet (A, à son curseur) avec B&#x202f;:</translation>
    </message>
    <message>
        <source>A file...</source>
        <translation>Un fichier...</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>Comparer avec</translation>
    </message>
    <message>
        <source>Mark: open a snapshot (fully loaded) first.</source>
        <translation>Marquer&#x202f;: ouvrez d&apos;abord un instantané (entièrement chargé).</translation>
    </message>
    <message>
        <source>moment A: event {event}; go to B (another moment or tab), then View &gt; Compare With Moment A</source>
        <translation>moment A&#x202f;: événement {event}&#x202f;; allez à B (un autre moment ou onglet), puis Affichage &gt; Comparer avec le moment A</translation>
    </message>
    <message>
        <source>Mark a moment first (View &gt; Mark This Moment as A).</source>
        <translation>Marquez d&apos;abord un moment (Affichage &gt; Marquer ce moment comme A).</translation>
    </message>
    <message>
        <source>Compare: show a snapshot (fully loaded) as B.</source>
        <translation>Comparer&#x202f;: affichez un instantané (entièrement chargé) comme B.</translation>
    </message>
    <message>
        <source>Open a folder of rank snapshots</source>
        <translation>Ouvrir un dossier d&apos;instantanés par rang</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>en</source>
        <translation>fr</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>allocated (a hue per allocation site)</source>
        <translation>alloué (une teinte par site d&apos;allocation)</translation>
    </message>
    <message>
        <source>rounding waste (size - requested)</source>
        <translation>perte d&apos;arrondi (taille - demandé)</translation>
    </message>
    <message>
        <source>pending free (record_stream)</source>
        <translation>libération en attente (record_stream)</translation>
    </message>
    <message>
        <source>cached free: a hole</source>
        <translation>libre en cache&#x202f;: un trou</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>plus grand bloc libre</translation>
    </message>
</context>
<context>
    <name>LiveActions</name>
    <message>
        <source>no probe at {path}</source>
        <translation>aucune sonde à {path}</translation>
    </message>
    <message>
        <source>No local job runs a gpumem-gui probe.</source>
        <translation>Aucun job local n&apos;exécute de sonde gpumem-gui.</translation>
    </message>
    <message>
        <source>Attach to Socket</source>
        <translation>Attacher à un socket</translation>
    </message>
    <message>
        <source>Probe socket (e.g. /tmp/gpumem.sock, forwarded with ssh -L):</source>
        <translation>Socket de la sonde (ex. /tmp/gpumem.sock, redirigé avec ssh -L)&#x202f;:</translation>
    </message>
    <message>
        <source>Attach</source>
        <translation>Attacher</translation>
    </message>
</context>
<context>
    <name>LoadErrorPage</name>
    <message>
        <source>Cannot open this file</source>
        <translation>Impossible d&apos;ouvrir ce fichier</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Open another file...</source>
        <translation>Ouvrir un autre fichier...</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Open snapshots</source>
        <translation>Ouvrir des instantanés</translation>
    </message>
    <message>
        <source>Snapshots ({patterns});;All files (*)</source>
        <translation>Instantanés ({patterns});;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>{name}: grouping by site...</source>
        <translation>{name}&#x202f;: regroupement par site d&apos;appel...</translation>
    </message>
    <message>
        <source>{name}: indexing the trace...</source>
        <translation>{name}&#x202f;: indexation de la trace...</translation>
    </message>
    <message>
        <source>{name}: reading...</source>
        <translation>{name}&#x202f;: lecture...</translation>
    </message>
    <message>
        <source>opening {count} files; {message}</source>
        <translation>ouverture de {count} fichiers&#x202f;; {message}</translation>
    </message>
    <message>
        <source>replaying through the allocator simulator...</source>
        <translation>rejeu dans le simulateur de l&apos;allocateur...</translation>
    </message>
</context>
<context>
    <name>MenuWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>&amp;Ouvrir...</translation>
    </message>
    <message>
        <source>Open &amp;Folder...</source>
        <translation>Ouvrir un &amp;dossier...</translation>
    </message>
    <message>
        <source>Open C&amp;luster Folder...</source>
        <translation>Ouvrir le dossier d&apos;un c&amp;luster...</translation>
    </message>
    <message>
        <source>&amp;Compare...</source>
        <translation>&amp;Comparer...</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Ouverts &amp;récemment</translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation>Ouvrir un &amp;exemple</translation>
    </message>
    <message>
        <source>Export &amp;Image...</source>
        <translation>Exporter l&apos;&amp;image...</translation>
    </message>
    <message>
        <source>Export &amp;Blocks CSV...</source>
        <translation>Exporter les &amp;blocs en CSV...</translation>
    </message>
    <message>
        <source>&amp;Save Report...</source>
        <translation>&amp;Enregistrer le rapport...</translation>
    </message>
    <message>
        <source>Close &amp;Tab</source>
        <translation>Fermer l&apos;&amp;onglet</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>&amp;Plein écran</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Langue</translation>
    </message>
    <message>
        <source>&amp;What if...</source>
        <translation>&amp;Et si...</translation>
    </message>
    <message>
        <source>&amp;Mark This Moment as A</source>
        <translation>&amp;Marquer ce moment comme A</translation>
    </message>
    <message>
        <source>&amp;Compare With Moment A</source>
        <translation>&amp;Comparer avec le moment A</translation>
    </message>
    <message>
        <source>Your &amp;Code and Libraries...</source>
        <translation>Votre &amp;code et les bibliothèques...</translation>
    </message>
    <message>
        <source>Allocator &amp;Settings</source>
        <translation>&amp;Paramètres de l&apos;allocateur</translation>
    </message>
    <message>
        <source>Cached Se&amp;gments</source>
        <translation>Se&amp;gments en cache</translation>
    </message>
    <message>
        <source>Memory by &amp;Pool</source>
        <translation>Mémoire par &amp;pool</translation>
    </message>
    <message>
        <source>&amp;Explain the OOM or Peak</source>
        <translation>&amp;Expliquer l&apos;OOM ou le pic</translation>
    </message>
    <message>
        <source>Explain This &amp;Event</source>
        <translation>Expliquer cet &amp;événement</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>En &amp;direct</translation>
    </message>
    <message>
        <source>&amp;Attach...</source>
        <translation>&amp;Attacher...</translation>
    </message>
    <message>
        <source>Attach to A&amp;ll</source>
        <translation>Attacher à &amp;tous</translation>
    </message>
    <message>
        <source>Attach to &amp;Socket...</source>
        <translation>Attacher à un &amp;socket...</translation>
    </message>
    <message>
        <source>All &amp;Jobs</source>
        <translation>Tous les &amp;jobs</translation>
    </message>
    <message>
        <source>GPU &amp;Devices</source>
        <translation>&amp;Périphériques GPU</translation>
    </message>
    <message>
        <source>&amp;Detach</source>
        <translation>Dé&amp;tacher</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;ide</translation>
    </message>
    <message>
        <source>Guided &amp;Quiz</source>
        <translation>&amp;Quiz guidé</translation>
    </message>
    <message>
        <source>&amp;Checkpointing Lab</source>
        <translation>&amp;Laboratoire de points de contrôle</translation>
    </message>
    <message>
        <source>&amp;Debugging Challenge</source>
        <translation>&amp;Défi de débogage</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>À &amp;propos</translation>
    </message>
    <message>
        <source>About gpumem-gui</source>
        <translation>À propos de gpumem-gui</translation>
    </message>
    <message>
        <source>gpumem-gui {version}: PyTorch CUDA caching-allocator memory, segment by segment.</source>
        <translation>gpumem-gui {version}&#x202f;: la mémoire de l&apos;allocateur à cache CUDA de PyTorch, segment par segment.</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>StackPopup</name>
    <message>
        <source>click to pin</source>
        <translation>cliquer pour épingler</translation>
    </message>
    <message>
        <source>pinned: Esc or a click on nothing unpins</source>
        <translation>épinglé&#x202f;: Échap ou un clic dans le vide le détache</translation>
    </message>
</context>
<context>
    <name>StackView</name>
    <message>
        <source>Also show the allocator, dispatcher, autograd engine and CPython frames, greyed</source>
        <translation>Montrer aussi les cadres de l&apos;allocateur, du dispatcher, du moteur autograd et de CPython, en gris</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
    <message>
        <source>Show all frames ({hidden} hidden)</source>
        <translation>Montrer tous les cadres ({hidden} masqués)</translation>
    </message>
    <message>
        <source>Show all frames</source>
        <translation>Montrer tous les cadres</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <source>GPU memory, block by block</source>
        <translation>La mémoire GPU, bloc par bloc</translation>
    </message>
    <message>
        <source>Open a snapshot written by {code} (or drop it here), watch a training job that runs the probe, or learn how the caching allocator fragments memory.</source>
        <translation>Ouvrez un instantané écrit par {code} (ou déposez-le ici), suivez un job d&apos;entraînement qui exécute la sonde, ou découvrez comment l&apos;allocateur à cache fragmente la mémoire.</translation>
    </message>
    <message>
        <source>Open snapshot...</source>
        <translation>Ouvrir un instantané...</translation>
    </message>
    <message>
        <source>Ctrl+O: a .pickle, .json or .gz from any torch since 2.0</source>
        <translation>Ctrl+O&#x202f;: un .pickle, .json ou .gz de tout torch depuis la 2.0</translation>
    </message>
    <message>
        <source>Open an example</source>
        <translation>Ouvrir un exemple</translation>
    </message>
    <message>
        <source>a simulated run that ends in a fragmentation OOM</source>
        <translation>une exécution simulée qui finit par un OOM de fragmentation</translation>
    </message>
    <message>
        <source>Attach to a job...</source>
        <translation>Attacher à un job...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A: a local process that runs gpumem_gui.probe</source>
        <translation>Ctrl+Shift+A&#x202f;: un processus local qui exécute gpumem_gui.probe</translation>
    </message>
    <message>
        <source>Guided quiz</source>
        <translation>Quiz guidé</translation>
    </message>
    <message>
        <source>F2: fragmentation and checkpointing, each shown on a map</source>
        <translation>F2&#x202f;: la fragmentation et les points de contrôle de gradient, chacun montré sur une carte</translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation>Récents&#x202f;:</translation>
    </message>
</context>
<context>
    <name>TabActions</name>
    <message>
        <source>What if</source>
        <translation>Et si</translation>
    </message>
    <message>
        <source>Open a snapshot with a trace first.</source>
        <translation>Ouvrez d&apos;abord un instantané avec une trace.</translation>
    </message>
    <message>
        <source>Explain needs a snapshot with a trace, fully loaded.</source>
        <translation>L&apos;explication a besoin d&apos;un instantané avec une trace, entièrement chargé.</translation>
    </message>
    <message>
        <source>Export blocks</source>
        <translation>Exporter les blocs</translation>
    </message>
    <message>
        <source>Save report</source>
        <translation>Enregistrer le rapport</translation>
    </message>
    <message>
        <source>Text (*.txt);;JSON (*.json)</source>
        <translation>Texte (*.txt);;JSON (*.json)</translation>
    </message>
    <message>
        <source>saved {path}</source>
        <translation>enregistré {path}</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>Exporter l&apos;image</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>show me: {what}</source>
        <translation>montrez-moi&#x202f;: {what}</translation>
    </message>
    <message>
        <source>checkpointing lab</source>
        <translation>laboratoire de points de contrôle</translation>
    </message>
    <message>
        <source>{name} (cannot open)</source>
        <translation>{name} (impossible à ouvrir)</translation>
    </message>
    <message>
        <source>GPU devices</source>
        <translation>périphériques GPU</translation>
    </message>
    <message>
        <source>live: all jobs</source>
        <translation>en direct&#x202f;: tous les jobs</translation>
    </message>
    <message>
        <source>live: pid {pid}</source>
        <translation>en direct&#x202f;: pid {pid}</translation>
    </message>
    <message>
        <source>live: pid {pid} (remote)</source>
        <translation>en direct&#x202f;: pid {pid} (distant)</translation>
    </message>
    <message>
        <source>live: rank {rank} pid {pid}</source>
        <translation>en direct&#x202f;: rang {rank} pid {pid}</translation>
    </message>
    <message>
        <source>live: rank {rank} pid {pid} (remote)</source>
        <translation>en direct&#x202f;: rang {rank} pid {pid} (distant)</translation>
    </message>
    <message>
        <source>what if: {change}</source>
        <translation>et si&#x202f;: {change}</translation>
    </message>
    <message>
        <source>what if: recorded</source>
        <translation>et si&#x202f;: enregistré</translation>
    </message>
    <message>
        <source>ranks: {folder} on {scheduler}</source>
        <translation>rangs&#x202f;: {folder} sur {scheduler}</translation>
    </message>
    <message>
        <source>ranks: {folder}</source>
        <translation>rangs&#x202f;: {folder}</translation>
    </message>
</context>
<context>
    <name>Tasks</name>
    <message>
        <source>attach {target}</source>
        <translation>attacher {target}</translation>
    </message>
    <message>
        <source>Attach to All</source>
        <translation>Attacher à tous</translation>
    </message>
    <message>
        <source>live session pid {pid}</source>
        <translation>session en direct pid {pid}</translation>
    </message>
    <message>
        <source>live events pid {pid}</source>
        <translation>événements en direct pid {pid}</translation>
    </message>
    <message>
        <source>mark {name}</source>
        <translation>marquer {name}</translation>
    </message>
    <message>
        <source>ranks {folder}</source>
        <translation>rangs {folder}</translation>
    </message>
    <message>
        <source>NVML poll</source>
        <translation>lecture NVML</translation>
    </message>
</context>
<context>
    <name>TeachActions</name>
    <message>
        <source>Guided quiz</source>
        <translation>Quiz guidé</translation>
    </message>
    <message>
        <source>Debugging challenge</source>
        <translation>Défi de débogage</translation>
    </message>
    <message>
        <source>challenge: {name}</source>
        <translation>défi&#x202f;: {name}</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>Montrez-moi</translation>
    </message>
    <message>
        <source>Snapshots (*.pickle *.pkl *.json *.gz)</source>
        <translation>Instantanés (*.pickle *.pkl *.json *.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>bytes</source>
        <translation>octets</translation>
    </message>
</context>
<context>
    <name>UserCodeDialog</name>
    <message>
        <source>Your code and libraries</source>
        <translation>Votre code et les bibliothèques</translation>
    </message>
    <message>
        <source>A block is charged to the innermost line of your code, with the library line below it (&quot;model.py:88 via einops/_backends.py:288&quot;). Frames under site-packages, dist-packages, the standard library and torch are libraries; the rest is your code. Move folders across that line here, one a line: a path, or a package name such as diffusers.</source>
        <translation>Un bloc est imputé à la ligne la plus interne de votre code, avec la ligne de bibliothèque en dessous (&quot;model.py:88 via einops/_backends.py:288&quot;). Les cadres sous site-packages, dist-packages, la bibliothèque standard et torch sont des bibliothèques&#x202f;; le reste est votre code. Faites passer ici des dossiers de l&apos;autre côté de cette ligne, un par ligne&#x202f;: un chemin, ou un nom de paquet comme diffusers.</translation>
    </message>
    <message>
        <source>Your code (even inside site-packages):</source>
        <translation>Votre code (même dans site-packages)&#x202f;:</translation>
    </message>
    <message>
        <source>Libraries (not your code, even outside site-packages):</source>
        <translation>Bibliothèques (pas votre code, même hors de site-packages)&#x202f;:</translation>
    </message>
</context>
</TS>
