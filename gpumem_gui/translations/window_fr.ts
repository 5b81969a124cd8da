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
        <source>Compare: {message}</source>
        <translation>Comparer&#x202f;: {message}</translation>
    </message>
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
    <name>SnapshotError</name>
    <message>
        <source>a {type}</source>
        <translation>un objet {type}</translation>
    </message>
    <message>
        <source>{names} changed while it was read (it is shorter than when it was opened); open it again once it is written</source>
        <translation>{names} a changé pendant sa lecture (il est plus court qu&apos;à l&apos;ouverture)&#x202f;; rouvrez-le une fois qu&apos;il est écrit</translation>
    </message>
    <message>
        <source>signal {number}</source>
        <translation>signal {number}</translation>
    </message>
    <message>
        <source>{signal} (out of memory? the system&apos;s OOM killer sends it)</source>
        <translation>{signal} (mémoire épuisée&#x202f;? le tueur OOM du système l&apos;envoie)</translation>
    </message>
    <message>
        <source>a stack frame is {type}, not a dict</source>
        <translation>un cadre de pile est {type}, pas un dict</translation>
    </message>
    <message>
        <source>a &apos;frames&apos; value is {type}, not a list</source>
        <translation>une valeur &apos;frames&apos; est {type}, pas une liste</translation>
    </message>
    <message>
        <source>not a snapshot: a list, but not of segments (dicts with &apos;blocks&apos;)</source>
        <translation>pas un instantané&#x202f;: une liste, mais pas de segments (dicts avec &apos;blocks&apos;)</translation>
    </message>
    <message>
        <source>not a snapshot: the dict has no &apos;segments&apos; (its keys: {keys})</source>
        <translation>pas un instantané&#x202f;: le dict n&apos;a pas de &apos;segments&apos; (ses clés&#x202f;: {keys})</translation>
    </message>
    <message>
        <source>not a snapshot: the file holds {type}, not the dict of torch.cuda.memory._dump_snapshot or a list of segments</source>
        <translation>pas un instantané&#x202f;: le fichier contient {type}, pas le dict de torch.cuda.memory._dump_snapshot ni une liste de segments</translation>
    </message>
    <message>
        <source>not a snapshot: &apos;segments&apos; is {type}, not a list</source>
        <translation>pas un instantané&#x202f;: &apos;segments&apos; est {type}, pas une liste</translation>
    </message>
    <message>
        <source>not a snapshot: &apos;device_traces&apos; is not a list of lists</source>
        <translation>pas un instantané&#x202f;: &apos;device_traces&apos; n&apos;est pas une liste de listes</translation>
    </message>
    <message>
        <source>segment {i} is {type}, not a dict</source>
        <translation>le segment {i} est {type}, pas un dict</translation>
    </message>
    <message>
        <source>segment {i} has no {key}</source>
        <translation>le segment {i} n&apos;a pas de {key}</translation>
    </message>
    <message>
        <source>segment {i} has &apos;blocks&apos; that is not a list</source>
        <translation>le segment {i} a des &apos;blocks&apos; qui ne sont pas une liste</translation>
    </message>
    <message>
        <source>segment {i} block {j} is not a dict</source>
        <translation>le bloc {j} du segment {i} n&apos;est pas un dict</translation>
    </message>
    <message>
        <source>segment {i} block {j} has no {key}</source>
        <translation>le bloc {j} du segment {i} n&apos;a pas de {key}</translation>
    </message>
    <message>
        <source>segment {i} block {j} has a bad &apos;state&apos; ({state})</source>
        <translation>le bloc {j} du segment {i} a un &apos;state&apos; invalide ({state})</translation>
    </message>
    <message>
        <source>segment {i} {key}</source>
        <translation>la valeur {key} du segment {i}</translation>
    </message>
    <message>
        <source>segment {i} block {j} {key}</source>
        <translation>la valeur {key} du bloc {j} du segment {i}</translation>
    </message>
    <message>
        <source>{where} entry {row} {key}</source>
        <translation>{where}, la valeur {key} de l&apos;entrée {row}</translation>
    </message>
    <message>
        <source>is a directory, not a snapshot file</source>
        <translation>est un dossier, pas un fichier d&apos;instantané</translation>
    </message>
    <message>
        <source>is a FIFO (named pipe), not a snapshot file</source>
        <translation>est une FIFO (tube nommé), pas un fichier d&apos;instantané</translation>
    </message>
    <message>
        <source>is a character device, not a snapshot file</source>
        <translation>est un périphérique caractère, pas un fichier d&apos;instantané</translation>
    </message>
    <message>
        <source>is a block device, not a snapshot file</source>
        <translation>est un périphérique bloc, pas un fichier d&apos;instantané</translation>
    </message>
    <message>
        <source>is a socket, not a snapshot file</source>
        <translation>est un socket, pas un fichier d&apos;instantané</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>ce fichier n&apos;existe pas</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>permission refusée</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>le fichier est vide</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>n&apos;est pas un fichier ordinaire</translation>
    </message>
    <message>
        <source>cannot read: {reason}</source>
        <translation>lecture impossible&#x202f;: {reason}</translation>
    </message>
    <message>
        <source>refused to load: gzip inside gzip more than {n} deep</source>
        <translation>chargement refusé&#x202f;: gzip dans gzip sur plus de {n} niveaux</translation>
    </message>
    <message>
        <source>half the memory available</source>
        <translation>la moitié de la mémoire disponible</translation>
    </message>
    <message>
        <source>from {size}</source>
        <translation>à partir de {size}</translation>
    </message>
    <message>
        <source>refused to load: the gzip data expands beyond {size} ({why})</source>
        <translation>chargement refusé&#x202f;: les données gzip dépassent {size} une fois décompressées ({why})</translation>
    </message>
    <message>
        <source>corrupt gzip data ({reason})</source>
        <translation>données gzip corrompues ({reason})</translation>
    </message>
    <message>
        <source>cannot decompress into {folder}: {reason}</source>
        <translation>décompression impossible dans {folder}&#x202f;: {reason}</translation>
    </message>
    <message>
        <source>the gzip stream is empty</source>
        <translation>le flux gzip est vide</translation>
    </message>
    <message>
        <source>not valid JSON ({reason})</source>
        <translation>JSON invalide ({reason})</translation>
    </message>
    <message>
        <source>a number in the JSON has more digits than Python reads ({n})</source>
        <translation>un nombre du JSON a plus de chiffres que Python n&apos;en lit ({n})</translation>
    </message>
    <message>
        <source>not valid JSON (nested too deeply)</source>
        <translation>JSON invalide (imbriqué trop profondément)</translation>
    </message>
    <message>
        <source>pickle protocol {protocol} is newer than this Python reads</source>
        <translation>le protocole pickle {protocol} est plus récent que ce que lit ce Python</translation>
    </message>
    <message>
        <source>not a snapshot: neither a pickle nor JSON</source>
        <translation>pas un instantané&#x202f;: ni un pickle ni du JSON</translation>
    </message>
    <message>
        <source>ran out of input</source>
        <translation>les données se sont terminées</translation>
    </message>
    <message>
        <source>truncated or corrupt pickle ({reason})</source>
        <translation>pickle tronqué ou corrompu ({reason})</translation>
    </message>
    <message>
        <source>corrupt pickle ({type}: {reason})</source>
        <translation>pickle corrompu ({type}&#x202f;: {reason})</translation>
    </message>
    <message>
        <source>corrupt pickle (nested too deeply)</source>
        <translation>pickle corrompu (imbriqué trop profondément)</translation>
    </message>
    <message>
        <source>corrupt pickle (it asks for more memory than there is)</source>
        <translation>pickle corrompu (il demande plus de mémoire qu&apos;il n&apos;y en a)</translation>
    </message>
    <message>
        <source>refused to load: the data is nested too deeply</source>
        <translation>chargement refusé&#x202f;: les données sont imbriquées trop profondément</translation>
    </message>
    <message>
        <source>refused to load: it needs more memory than there is</source>
        <translation>chargement refusé&#x202f;: il faut plus de mémoire qu&apos;il n&apos;y en a</translation>
    </message>
    <message>
        <source>refused to load: device {device} trace holds one entry at several places</source>
        <translation>chargement refusé&#x202f;: la trace du périphérique {device} contient une même entrée à plusieurs endroits</translation>
    </message>
    <message>
        <source>refused to load: more than {rows} segments, blocks and trace entries from {bytes} bytes of pickle (one entry repeated by reference?)</source>
        <translation>chargement refusé&#x202f;: plus de {rows} segments, blocs et entrées de trace pour {bytes} octets de pickle (une entrée répétée par référence&#x202f;?)</translation>
    </message>
    <message>
        <source>device {device} has no segments and no trace (devices: {found})</source>
        <translation>le périphérique {device} n&apos;a ni segments ni trace (périphériques&#x202f;: {found})</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>{where} is {value}, not a dict</source>
        <translation>{where} est {value}, pas un dict</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a string</source>
        <translation>{where} {key} est {value}, pas une chaîne</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a dict of device: bytes</source>
        <translation>{where} {key} est {value}, pas un dict périphérique&#x202f;: octets</translation>
    </message>
    <message>
        <source>{where} device</source>
        <translation>le périphérique de {where}</translation>
    </message>
    <message>
        <source>{where} total memory of device {device}</source>
        <translation>{where}, mémoire totale du périphérique {device}</translation>
    </message>
    <message>
        <source>refused to load: the file asks for {name}</source>
        <translation>chargement refusé&#x202f;: le fichier demande {name}</translation>
    </message>
    <message>
        <source>refused to load: the file uses a persistent id</source>
        <translation>chargement refusé&#x202f;: le fichier utilise un identifiant persistant</translation>
    </message>
    <message>
        <source>refused to load: the file uses the pickle extension registry ({name})</source>
        <translation>chargement refusé&#x202f;: le fichier utilise le registre d&apos;extensions pickle ({name})</translation>
    </message>
    <message>
        <source>refused to load: memo index {index} is beyond what a {n}-byte pickle can hold</source>
        <translation>chargement refusé&#x202f;: l&apos;index memo {index} dépasse ce que peut contenir un pickle de {n} octets</translation>
    </message>
    <message>
        <source>the file changed while it was read; read it again when it is written</source>
        <translation>le fichier a changé pendant sa lecture&#x202f;; relisez-le une fois écrit</translation>
    </message>
    <message>
        <source>cannot read it: {reason}</source>
        <translation>lecture impossible&#x202f;: {reason}</translation>
    </message>
    <message>
        <source>could not read the loaded data: {type}: {reason} ({path})</source>
        <translation>les données chargées n&apos;ont pas pu être lues&#x202f;: {type}&#x202f;: {reason} ({path})</translation>
    </message>
    <message>
        <source>loading took longer than {seconds} s ({path})</source>
        <translation>le chargement a duré plus de {seconds} s ({path})</translation>
    </message>
    <message>
        <source>the loading process named a file outside its folder ({path})</source>
        <translation>le processus de chargement a nommé un fichier hors de son dossier ({path})</translation>
    </message>
    <message>
        <source>cancelled ({path})</source>
        <translation>annulé ({path})</translation>
    </message>
    <message>
        <source>the loading process stopped unexpectedly, killed by {signal} ({path})</source>
        <translation>le processus de chargement s&apos;est arrêté de façon inattendue, tué par {signal} ({path})</translation>
    </message>
    <message>
        <source>the loading process stopped unexpectedly ({path})</source>
        <translation>le processus de chargement s&apos;est arrêté de façon inattendue ({path})</translation>
    </message>
    <message>
        <source>nothing was loaded ({path})</source>
        <translation>rien n&apos;a été chargé ({path})</translation>
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
    <message>
        <source>not a size: &quot;{text}&quot; (try {big}, {small} or a byte count)</source>
        <translation>pas une taille&#x202f;: «&#x202f;{text}&#x202f;» (essayez {big}, {small} ou un nombre d&apos;octets)</translation>
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
