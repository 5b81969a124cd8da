<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>BlockPage</name>
    <message>
        <source>{segment}: {size}, {blocks} {blocks:block|blocks},</source>
        <translation>{segment}&#x202f;: {size}, {blocks} {blocks:bloc|blocs},</translation>
    </message>
    <message>
        <source>free {free}, largest hole {largest}</source>
        <translation>libre {free}, plus grand trou {largest}</translation>
    </message>
    <message>
        <source>segment</source>
        <translation>segment</translation>
    </message>
    <message>
        <source>category</source>
        <translation>catégorie</translation>
    </message>
    <message>
        <source>no stack</source>
        <translation>pas de pile</translation>
    </message>
    <message>
        <source>user metadata</source>
        <translation>métadonnées utilisateur</translation>
    </message>
    <message>
        <source>annotation</source>
        <translation>annotation</translation>
    </message>
    <message>
        <source>{what}: {why}</source>
        <translation>{what}&#x202f;: {why}</translation>
    </message>
    <message>
        <source>Click a block for details.</source>
        <translation>Cliquez sur un bloc pour les détails.</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>pile</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
</context>
<context>
    <name>Breakdown</name>
    <message>
        <source>small</source>
        <translation>petit</translation>
    </message>
    <message>
        <source>large</source>
        <translation>grand</translation>
    </message>
    <message>
        <source>{pool} pool</source>
        <translation>pool {pool}</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>address</source>
        <translation>adresse</translation>
    </message>
    <message>
        <source>size</source>
        <translation>taille</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>state</source>
        <translation>état</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>stream</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>pool</translation>
    </message>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>time</source>
        <translation>temps</translation>
    </message>
    <message>
        <source>action</source>
        <translation>action</translation>
    </message>
</context>
<context>
    <name>DeviceMenu</name>
    <message>
        <source>GPU {device}: nothing reserved</source>
        <translation>GPU {device}&#x202f;: rien de réservé</translation>
    </message>
    <message>
        <source>GPU {device}: peak {peak}</source>
        <translation>GPU {device}&#x202f;: pic {peak}</translation>
    </message>
</context>
<context>
    <name>EventInspector</name>
    <message>
        <source>action</source>
        <translation>action</translation>
    </message>
    <message>
        <source>address</source>
        <translation>adresse</translation>
    </message>
    <message>
        <source>size</source>
        <translation>taille</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloc</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>stream</translation>
    </message>
    <message>
        <source>time</source>
        <translation>temps</translation>
    </message>
    <message>
        <source>device free</source>
        <translation>libre sur le périphérique</translation>
    </message>
    <message>
        <source>compile context</source>
        <translation>contexte de compilation</translation>
    </message>
    <message>
        <source>user metadata</source>
        <translation>métadonnées utilisateur</translation>
    </message>
    <message>
        <source>FX node</source>
        <translation>nœud FX</translation>
    </message>
    <message>
        <source>(an OOM has no address)</source>
        <translation>(un OOM n&apos;a pas d&apos;adresse)</translation>
    </message>
    <message>
        <source> (the default stream)</source>
        <translation> (le stream par défaut)</translation>
    </message>
    <message>
        <source> (this trace has no times)</source>
        <translation> (cette trace n&apos;a pas d&apos;horodatage)</translation>
    </message>
    <message>
        <source> (not known until the trace is indexed)</source>
        <translation> (inconnu tant que la trace n&apos;est pas indexée)</translation>
    </message>
    <message>
        <source>{size}, as requested</source>
        <translation>{size}, comme demandé</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>octets</translation>
    </message>
    <message>
        <source>{size}: {more} more than requested</source>
        <translation>{size}&#x202f;: {more} de plus que demandé</translation>
    </message>
    <message>
        <source>{elapsed} after the trace&apos;s first event</source>
        <translation>{elapsed} après le premier événement de la trace</translation>
    </message>
    <message>
        <source>no event: before the first one, or the file has no trace</source>
        <translation>aucun événement&#x202f;: avant le premier, ou le fichier n&apos;a pas de trace</translation>
    </message>
    <message>
        <source>no event yet: the trace is still being read</source>
        <translation>pas encore d&apos;événement&#x202f;: la trace est encore en lecture</translation>
    </message>
    <message>
        <source>event {event} of {events}: {what}</source>
        <translation>événement {event} sur {events}&#x202f;: {what}</translation>
    </message>
    <message>
        <source>event {event}: {what}</source>
        <translation>événement {event}&#x202f;: {what}</translation>
    </message>
    <message>
        <source>{action} in the trace</source>
        <translation>{action} dans la trace</translation>
    </message>
    <message>
        <source>{clock} ({us} µs since the epoch)</source>
        <translation>{clock} ({us} µs depuis l&apos;époque Unix)</translation>
    </message>
    <message>
        <source>(no forward stack: not a backward allocation)</source>
        <translation>(pas de pile de la passe avant&#x202f;: pas une allocation de la passe arrière)</translation>
    </message>
</context>
<context>
    <name>EventListView</name>
    <message>
        <source>all events</source>
        <translation>tous les événements</translation>
    </message>
    <message>
        <source>allocations</source>
        <translation>allocations</translation>
    </message>
    <message>
        <source>frees</source>
        <translation>libérations</translation>
    </message>
    <message>
        <source>cudaMalloc/cudaFree (segments)</source>
        <translation>cudaMalloc/cudaFree (segments)</translation>
    </message>
    <message>
        <source>segment map/unmap</source>
        <translation>mappage/démappage de segment</translation>
    </message>
    <message>
        <source>OOMs</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>snapshots and annotations</source>
        <translation>instantanés et annotations</translation>
    </message>
    <message>
        <source>{size}; block {block}</source>
        <translation>{size}&#x202f;; bloc {block}</translation>
    </message>
    <message>
        <source>e.g. 64MiB</source>
        <translation>ex. 64MiB</translation>
    </message>
    <message>
        <source>Only events of at least this size: 64MiB, 1.5 GiB, 1000000 (bytes)</source>
        <translation>Seulement les événements d&apos;au moins cette taille&#x202f;: 64MiB, 1,5&#xa0;Gio, 1000000 (octets)</translation>
    </message>
    <message>
        <source>size ≥</source>
        <translation>taille ≥</translation>
    </message>
    <message>
        <source>all streams</source>
        <translation>tous les streams</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>size? try 64MiB, 1.5 GiB, 1000000</source>
        <translation>taille&#x202f;? essayez 64MiB, 1,5&#xa0;Gio, 1000000</translation>
    </message>
    <message>
        <source>{shown} of {total} {total:event|events}</source>
        <translation>{shown} sur {total} {total:événement|événements}</translation>
    </message>
</context>
<context>
    <name>EventWords</name>
    <message>
        <source>allocation</source>
        <translation>allocation</translation>
    </message>
    <message>
        <source>free requested</source>
        <translation>libération demandée</translation>
    </message>
    <message>
        <source>free completed</source>
        <translation>libération terminée</translation>
    </message>
    <message>
        <source>segment alloc (cudaMalloc)</source>
        <translation>allocation de segment (cudaMalloc)</translation>
    </message>
    <message>
        <source>segment free (cudaFree)</source>
        <translation>libération de segment (cudaFree)</translation>
    </message>
    <message>
        <source>segment map</source>
        <translation>mappage de segment</translation>
    </message>
    <message>
        <source>segment unmap</source>
        <translation>démappage de segment</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>instantané</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>annotation (user_defined)</source>
        <translation>annotation (user_defined)</translation>
    </message>
    <message>
        <source>annotation</source>
        <translation>annotation</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>segment</source>
        <translation>segment</translation>
    </message>
    <message>
        <source>mapped range</source>
        <translation>plage mappée</translation>
    </message>
    <message>
        <source>unmapped range</source>
        <translation>plage démappée</translation>
    </message>
    <message>
        <source>active bytes then</source>
        <translation>octets actifs alors</translation>
    </message>
    <message>
        <source>request (rounded)</source>
        <translation>demande (arrondie)</translation>
    </message>
    <message>
        <source>size</source>
        <translation>taille</translation>
    </message>
</context>
<context>
    <name>FiguresPanel</name>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>Memory the caching allocator holds from CUDA (what nvidia-smi counts for PyTorch).</source>
        <translation>La mémoire que l&apos;allocateur à cache tient de CUDA (ce que nvidia-smi compte pour PyTorch).</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>Memory in live tensors&apos; blocks (torch.cuda.memory_allocated).</source>
        <translation>La mémoire des blocs des tenseurs vivants (torch.cuda.memory_allocated).</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>What the program asked for; below allocated by the 512-byte rounding.</source>
        <translation>Ce que le programme a demandé&#x202f;; sous l&apos;alloué de l&apos;arrondi à 512&#xa0;octets.</translation>
    </message>
    <message>
        <source>rounding waste</source>
        <translation>perte d&apos;arrondi</translation>
    </message>
    <message>
        <source>allocated - requested: lost inside blocks to rounding and unsplit remainders.</source>
        <translation>alloué - demandé&#x202f;: perdu dans les blocs par l&apos;arrondi et les restes non scindés.</translation>
    </message>
    <message>
        <source>pending free</source>
        <translation>libération en attente</translation>
    </message>
    <message>
        <source>Freed, but still used by another stream (record_stream): free once it syncs.</source>
        <translation>Libéré, mais encore utilisé par un autre stream (record_stream)&#x202f;: libre après la synchronisation.</translation>
    </message>
    <message>
        <source>cached free</source>
        <translation>libre en cache</translation>
    </message>
    <message>
        <source>Reserved but unused: the holes. Large and useless? torch.cuda.empty_cache() returns whole free segments.</source>
        <translation>Réservé mais inutilisé&#x202f;: les trous. Grand et inutile&#x202f;? torch.cuda.empty_cache() rend les segments libres entiers.</translation>
    </message>
    <message>
        <source>largest hole</source>
        <translation>plus grand trou</translation>
    </message>
    <message>
        <source>The biggest request the holes can serve at once; larger ones need a new cudaMalloc.</source>
        <translation>La plus grande demande que les trous peuvent servir d&apos;un coup&#x202f;; les plus grandes demandent un nouveau cudaMalloc.</translation>
    </message>
    <message>
        <source>fragmentation</source>
        <translation>fragmentation</translation>
    </message>
    <message>
        <source>1 - largest hole / free. High with much free memory: try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.</source>
        <translation>1 - plus grand trou / libre. Élevée avec beaucoup de mémoire libre&#x202f;: essayez PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.</translation>
    </message>
    <message>
        <source>inactive split</source>
        <translation>scindé inactif</translation>
    </message>
    <message>
        <source>Free blocks inside segments that also hold live blocks: empty_cache cannot release them.</source>
        <translation>Blocs libres dans des segments qui tiennent aussi des blocs vivants&#x202f;: empty_cache ne peut pas les libérer.</translation>
    </message>
    <message>
        <source>largest that fits</source>
        <translation>plus grande qui tient</translation>
    </message>
    <message>
        <source>The largest allocation the cache can serve now, following the allocator&apos;s pool and split rules.</source>
        <translation>La plus grande allocation que le cache peut servir maintenant, selon les règles de pool et de scission de l&apos;allocateur.</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segments</translation>
    </message>
    <message>
        <source>cudaMalloc&apos;ed segments (or mapped runs of expandable segments).</source>
        <translation>Segments obtenus par cudaMalloc (ou plages mappées des segments extensibles).</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocs</translation>
    </message>
    <message>
        <source>Blocks of all states in those segments.</source>
        <translation>Blocs de tous les états dans ces segments.</translation>
    </message>
    <message>
        <source>{share} of reserved</source>
        <translation>{share} du réservé</translation>
    </message>
    <message>
        <source>{share} of allocated</source>
        <translation>{share} de l&apos;alloué</translation>
    </message>
    <message>
        <source>{share} of free</source>
        <translation>{share} du libre</translation>
    </message>
    <message>
        <source>oom requested</source>
        <translation>demandé à l&apos;OOM</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>plus grand bloc libre</translation>
    </message>
    <message>
        <source>device free</source>
        <translation>libre sur le périphérique</translation>
    </message>
    <message>
        <source>external fragmentation</source>
        <translation>fragmentation externe</translation>
    </message>
    <message>
        <source>upcoming requests</source>
        <translation>demandes à venir</translation>
    </message>
    <message>
        <source>upcoming max</source>
        <translation>maximum à venir</translation>
    </message>
    <message>
        <source>holes taking largest</source>
        <translation>trous qui peuvent prendre la plus grande</translation>
    </message>
    <message>
        <source>unusable free</source>
        <translation>libre inutilisable</translation>
    </message>
    <message>
        <source>free</source>
        <translation>libre</translation>
    </message>
    <message>
        <source>requests fitting no hole</source>
        <translation>demandes qui ne tiennent dans aucun trou</translation>
    </message>
    <message>
        <source>note</source>
        <translation>note</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>avertissement</translation>
    </message>
    <message>
        <source>alert</source>
        <translation>alerte</translation>
    </message>
    <message>
        <source>{severity}: {figures}</source>
        <translation>{severity}&#x202f;: {figures}</translation>
    </message>
</context>
<context>
    <name>FileNotes</name>
    <message>
        <source>the OOM (event {event} of {events})</source>
        <translation>l&apos;OOM (événement {event} sur {events})</translation>
    </message>
    <message>
        <source>the first of {count} OOMs (event {event} of {events})</source>
        <translation>le premier de {count} OOM (événement {event} sur {events})</translation>
    </message>
    <message>
        <source>the peak of allocated memory, {peak} (event {event} of {events})</source>
        <translation>le pic de mémoire allouée, {peak} (événement {event} sur {events})</translation>
    </message>
    <message>
        <source>GPU {device} holds nothing in this file; memory is on {gpus}</source>
        <translation>Le GPU {device} ne tient rien dans ce fichier&#x202f;; la mémoire est sur {gpus}</translation>
    </message>
    <message>
        <source>GPU {device} holds nothing in this file</source>
        <translation>Le GPU {device} ne tient rien dans ce fichier</translation>
    </message>
    <message>
        <source>{n} notes on this file: {first} (all of them in the tooltip)</source>
        <translation>{n} remarques sur ce fichier&#x202f;: {first} (toutes dans l&apos;infobulle)</translation>
    </message>
    <message>
        <source>1 note on this file: {first}</source>
        <translation>1 remarque sur ce fichier&#x202f;: {first}</translation>
    </message>
    <message>
        <source>Opened at {where}, the final state.</source>
        <translation>Ouvert sur {where}, l&apos;état final.</translation>
    </message>
    <message>
        <source>Opened at {where}; {end} shows the final state.</source>
        <translation>Ouvert sur {where}&#x202f;; {end} montre l&apos;état final.</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Fin</translation>
    </message>
</context>
<context>
    <name>Flame</name>
    <message>
        <source>{cost}: {total}</source>
        <translation>{cost}&#x202f;: {total}</translation>
    </message>
    <message>
        <source>{n} {n:allocation|allocations}</source>
        <translation>{n} {n:allocation|allocations}</translation>
    </message>
    <message>
        <source>; &apos;{search}&apos; matches {share} of the cost</source>
        <translation>&#x202f;; « {search} » couvre {share} du coût</translation>
    </message>
    <message>
        <source>bytes live at the cursor</source>
        <translation>octets vivants au curseur</translation>
    </message>
    <message>
        <source>bytes live at the peak</source>
        <translation>octets vivants au pic</translation>
    </message>
    <message>
        <source>bytes allocated in the span and still alive at its end</source>
        <translation>octets alloués dans l&apos;intervalle et encore vivants à sa fin</translation>
    </message>
    <message>
        <source>bytes allocated and freed inside the span</source>
        <translation>octets alloués et libérés dans l&apos;intervalle</translation>
    </message>
    <message>
        <source>allocations in the span</source>
        <translation>allocations dans l&apos;intervalle</translation>
    </message>
    <message>
        <source>inverted</source>
        <translation>inversé</translation>
    </message>
    <message>
        <source>the allocating line at the root, its callers above it</source>
        <translation>la ligne qui alloue à la racine, ses appelants au-dessus</translation>
    </message>
    <message>
        <source>root below</source>
        <translation>racine en bas</translation>
    </message>
    <message>
        <source>a flame graph (the root at the bottom) rather than an icicle</source>
        <translation>un graphe en flammes (la racine en bas) plutôt qu&apos;en stalactites</translation>
    </message>
    <message>
        <source>search frames</source>
        <translation>chercher dans les cadres</translation>
    </message>
    <message>
        <source>computing the flame graph...</source>
        <translation>calcul du graphe en flammes...</translation>
    </message>
    <message>
        <source>no flame graph while the trace is read</source>
        <translation>pas de graphe en flammes pendant la lecture de la trace</translation>
    </message>
    <message>
        <source>{name}: its blocks</source>
        <translation>{name}&#x202f;: ses blocs</translation>
    </message>
    <message>
        <source>all</source>
        <translation>tout</translation>
    </message>
</context>
<context>
    <name>Frameless</name>
    <message>
        <source>free space of its segment: the allocator keeps it reserved for its pool, and no allocation, so no stack, is in it</source>
        <translation>espace libre de son segment&#x202f;: l&apos;allocateur le garde réservé pour son pool, et aucune allocation, donc aucune pile, ne s&apos;y trouve</translation>
    </message>
    <message>
        <source>allocated before recording began (or its alloc entry fell out of the trace&apos;s ring buffer, max_entries): the snapshot lists it without the stack it was made with</source>
        <translation>alloué avant le début de l&apos;enregistrement (ou son entrée d&apos;allocation est sortie du tampon circulaire de la trace, max_entries)&#x202f;: l&apos;instantané le liste sans la pile qui l&apos;a créé</translation>
    </message>
    <message>
        <source>recorded without context: no entry of this trace carries frames (_record_memory_history(context=None), or context=&apos;state&apos;, which keeps stacks only on blocks still live when the snapshot was taken)</source>
        <translation>enregistré sans contexte&#x202f;: aucune entrée de cette trace ne porte de cadres (_record_memory_history(context=None), ou context=&apos;state&apos;, qui ne garde les piles que des blocs encore vivants au moment de l&apos;instantané)</translation>
    </message>
    <message>
        <source>allocated in backward on the autograd engine&apos;s thread, which runs no Python: stacks=&apos;python&apos; records no frame there, stacks=&apos;all&apos; records its C++ frames</source>
        <translation>alloué pendant la passe arrière sur le fil du moteur autograd, qui n&apos;exécute pas de Python&#x202f;: stacks=&apos;python&apos; n&apos;y enregistre aucun cadre, stacks=&apos;all&apos; en enregistre les cadres C++</translation>
    </message>
    <message>
        <source>allocated while recording, with frames on other entries but none on this one: the allocator or a C++ library made it outside any recorded call (a copy or workspace of its own)</source>
        <translation>alloué pendant l&apos;enregistrement, avec des cadres sur d&apos;autres entrées mais aucun sur celle-ci&#x202f;: l&apos;allocateur ou une bibliothèque C++ l&apos;a créé hors de tout appel enregistré (une copie ou un espace de travail à lui)</translation>
    </message>
</context>
<context>
    <name>GapBar</name>
    <message>
        <source>reserved {reserved}
allocated {allocated}
gap {gap}</source>
        <translation>réservé {reserved}
alloué {allocated}
écart {gap}</translation>
    </message>
    <message>
        <source>allocated {size}</source>
        <translation>alloué {size}</translation>
    </message>
    <message>
        <source>reserved {size}</source>
        <translation>réservé {size}</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>{newest} to {oldest}</source>
        <translation>{newest} à {oldest}</translation>
    </message>
    <message>
        <source>alive before recording began</source>
        <translation>vivant avant le début de l&apos;enregistrement</translation>
    </message>
    <message>
        <source>{low} events ago</source>
        <translation>il y a {low} {low:événement|événements}</translation>
    </message>
    <message>
        <source>{low} to {high} events ago</source>
        <translation>il y a {low} à {high} événements</translation>
    </message>
    <message>
        <source>allocated, by age:</source>
        <translation>alloué, par âge&#x202f;:</translation>
    </message>
</context>
<context>
    <name>PartialCurvesView</name>
    <message>
        <source>change ({0})</source>
        <translation>variation ({0})</translation>
    </message>
    <message>
        <source>Reading the trace: reserved and allocated memory over the first {0} events, as the change since the first event (what was held before it is known once the whole trace is read)</source>
        <translation>Lecture de l&apos;historique&#x202f;: mémoire réservée et allouée sur les {0} premiers événements, comme variation depuis le premier événement (ce qui était occupé avant n&apos;est connu qu&apos;une fois tout l&apos;historique lu)</translation>
    </message>
</context>
<context>
    <name>PinnedTracks</name>
    <message>
        <source>unpin this track</source>
        <translation>désépingler cette piste</translation>
    </message>
    <message>
        <source>{kind}: {label}, peak {peak}</source>
        <translation>{kind}&#x202f;: {label}, pic {peak}</translation>
    </message>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>catégorie</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>stream</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>pool</translation>
    </message>
    <message>
        <source>metadata</source>
        <translation>métadonnées</translation>
    </message>
    <message>
        <source>search</source>
        <translation>recherche</translation>
    </message>
    <message>
        <source>Pin band</source>
        <translation>Épingler la bande</translation>
    </message>
    <message>
        <source>pin the site, category, stream or pool last picked on &apos;allocated by site&apos;</source>
        <translation>épingler le site d&apos;appel, la catégorie, le stream ou le pool choisi en dernier dans « alloué par site d&apos;appel »</translation>
    </message>
    <message>
        <source>Pin search</source>
        <translation>Épingler la recherche</translation>
    </message>
    <message>
        <source>pin the blocks whose stack holds the text typed here</source>
        <translation>épingler les blocs dont la pile contient le texte saisi ici</translation>
    </message>
    <message>
        <source>text in a frame, e.g. x.py:160</source>
        <translation>texte d&apos;un cadre, ex. x.py:160</translation>
    </message>
    <message>
        <source>pin {kind} {label}</source>
        <translation>épingler {kind} {label}</translation>
    </message>
</context>
<context>
    <name>PoolEnvelope</name>
    <message>
        <source>default pool</source>
        <translation>pool par défaut</translation>
    </message>
    <message>
        <source>private pool {pool}</source>
        <translation>pool privé {pool}</translation>
    </message>
    <message>
        <source>Memory by pool</source>
        <translation>Mémoire par pool</translation>
    </message>
    <message>
        <source>Each pool&apos;s reserved memory is a grey envelope with its allocated memory inside</source>
        <translation>La mémoire réservée de chaque pool est une enveloppe grise, sa mémoire allouée à l&apos;intérieur</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>mémoire ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>événement de la trace</translation>
    </message>
    <message>
        <source>{pool}: peak {peak} reserved</source>
        <translation>{pool}&#x202f;: pic {peak} réservé</translation>
    </message>
    <message>
        <source> (no private pool in this trace)</source>
        <translation> (aucun pool privé dans cette trace)</translation>
    </message>
    <message>
        <source>before the first event</source>
        <translation>avant le premier événement</translation>
    </message>
    <message>
        <source>after event {event}</source>
        <translation>après l&apos;événement {event}</translation>
    </message>
    <message>
        <source>{pool}: {reserved} reserved, {allocated} allocated</source>
        <translation>{pool}&#x202f;: {reserved} réservé, {allocated} alloué</translation>
    </message>
</context>
<context>
    <name>SegmentMap</name>
    <message>
        <source>small pool</source>
        <translation>petit pool</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>grand pool</translation>
    </message>
    <message>
        <source>private pool ({a}, {b}), small</source>
        <translation>pool privé ({a}, {b}), petit</translation>
    </message>
    <message>
        <source>private pool ({a}, {b}), large</source>
        <translation>pool privé ({a}, {b}), grand</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>share of each segment (each row is stretched to its segment: widths are not to scale)</source>
        <translation>part de chaque segment (chaque ligne est étirée sur son segment&#x202f;: les largeurs ne sont pas à l&apos;échelle)</translation>
    </message>
    <message>
        <source>bytes from the row&apos;s start (a row is {size})</source>
        <translation>octets depuis le début de la ligne (une ligne fait {size})</translation>
    </message>
    <message>
        <source>bytes from the segment&apos;s start (to scale: a full row is {size})</source>
        <translation>octets depuis le début du segment (à l&apos;échelle&#x202f;: une ligne entière fait {size})</translation>
    </message>
    <message>
        <source>{n} {n:segment|segments}: zoom in to label</source>
        <translation>{n} {n:segment|segments}&#x202f;: zoomez pour les étiquettes</translation>
    </message>
    <message>
        <source>no segment here</source>
        <translation>aucun segment ici</translation>
    </message>
    <message>
        <source>a free block: no stack</source>
        <translation>un bloc libre&#x202f;: pas de pile</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
    <message>
        <source>size {size}</source>
        <translation>taille {size}</translation>
    </message>
    <message>
        <source>requested {size}</source>
        <translation>demandé {size}</translation>
    </message>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
</context>
<context>
    <name>SegmentTimeline</name>
    <message>
        <source>segment</source>
        <translation>segment</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>pool</translation>
    </message>
    <message>
        <source>created</source>
        <translation>créé</translation>
    </message>
    <message>
        <source>grown</source>
        <translation>agrandi</translation>
    </message>
    <message>
        <source>freed</source>
        <translation>libéré</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>pic</translation>
    </message>
    <message>
        <source>expandable, small pool</source>
        <translation>extensible, petit pool</translation>
    </message>
    <message>
        <source>expandable, large pool</source>
        <translation>extensible, grand pool</translation>
    </message>
    <message>
        <source>small pool</source>
        <translation>petit pool</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>grand pool</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>avant la trace</translation>
    </message>
    <message>
        <source>at event {created}</source>
        <translation>à l&apos;événement {created}</translation>
    </message>
    <message>
        <source>still cached at the end</source>
        <translation>encore en cache à la fin</translation>
    </message>
    <message>
        <source>freed at event {freed}</source>
        <translation>libéré à l&apos;événement {freed}</translation>
    </message>
    <message>
        <source>grown {grown} {grown:time|times}</source>
        <translation>agrandi {grown} {grown:fois|fois}</translation>
    </message>
    <message>
        <source>, shrunk {shrunk} {shrunk:time|times}</source>
        <translation>, réduit {shrunk} {shrunk:fois|fois}</translation>
    </message>
    <message>
        <source>created {made}, {changes}, {went}; peak {peak}</source>
        <translation>créé {made}, {changes}, {went}&#x202f;; pic {peak}</translation>
    </message>
    <message>
        <source>segment {address} ({kind}, stream {stream})</source>
        <translation>segment {address} ({kind}, stream {stream})</translation>
    </message>
    <message>
        <source>Cached segments, stacked in order of creation</source>
        <translation>Segments en cache, empilés par ordre de création</translation>
    </message>
    <message>
        <source>reserved ({unit})</source>
        <translation>réservé ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>événement de la trace</translation>
    </message>
    <message>
        <source>{lives} segment lives: {grown} grew, {freed} freed</source>
        <translation>{lives} vies de segment&#x202f;: {grown} agrandies, {freed} libérées</translation>
    </message>
    <message>
        <source>; the {small} smallest share the grey band</source>
        <translation>&#x202f;; les {small} plus petits partagent la bande grise</translation>
    </message>
    <message>
        <source>; an expandable one is its whole virtual range</source>
        <translation>&#x202f;; un segment extensible est toute sa plage virtuelle</translation>
    </message>
    <message>
        <source>An expandable segment is one virtual address range, mapped and unmapped page by page: one life here, while the map shows each mapped run of it as a segment.</source>
        <translation>Un segment extensible est une seule plage d&apos;adresses virtuelles, mappée et démappée page par page&#x202f;: une seule vie ici, tandis que la carte montre chaque plage mappée comme un segment.</translation>
    </message>
    <message>
        <source>before</source>
        <translation>avant</translation>
    </message>
    <message>
        <source>the {small} smallest segments</source>
        <translation>les {small} plus petits segments</translation>
    </message>
    <message>
        <source>{size} here; {when}</source>
        <translation>{size} ici&#x202f;; {when}</translation>
    </message>
    <message>
        <source>The smallest segments, in one band: the table lists each.</source>
        <translation>Les plus petits segments, en une seule bande&#x202f;: le tableau les énumère.</translation>
    </message>
    <message>
        <source>the stack that made it</source>
        <translation>la pile qui l&apos;a créé</translation>
    </message>
    <message>
        <source>no stack recorded for its first allocation</source>
        <translation>aucune pile enregistrée pour sa première allocation</translation>
    </message>
    <message>
        <source>Hover over a segment for its stack; click to pin it.</source>
        <translation>Survolez un segment pour sa pile&#x202f;; cliquez pour l&apos;épingler.</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>This file recorded no allocator settings (PyTorch wrote them from 2.3 on): the values below are PyTorch&apos;s defaults, assumed; the run may have used others.</source>
        <translation>Ce fichier n&apos;a enregistré aucun réglage de l&apos;allocateur (PyTorch les écrit depuis la version 2.3)&#x202f;: les valeurs ci-dessous sont celles par défaut de PyTorch, supposées&#x202f;; l&apos;exécution a pu en utiliser d&apos;autres.</translation>
    </message>
    <message>
        <source>not a field of the dialog</source>
        <translation>pas un champ de la boîte de dialogue</translation>
    </message>
    <message>
        <source>host memory: no block on the GPU changes</source>
        <translation>mémoire de l&apos;hôte&#x202f;: aucun bloc du GPU ne change</translation>
    </message>
    <message>
        <source>The environment variable the process started with; every key below that it names takes its value from it.</source>
        <translation>La variable d&apos;environnement avec laquelle le processus a démarré&#x202f;; chaque clé ci-dessous qu&apos;elle nomme en tient sa valeur.</translation>
    </message>
    <message>
        <source>the replay runs under the recorded string with the what-if items put over it</source>
        <translation>la réexécution part de la chaîne enregistrée, les éléments de Et si... posés par-dessus</translation>
    </message>
    <message>
        <source>True: each stream&apos;s segments are one virtual address range whose pages are mapped as it grows and unmapped when emptied, so freed memory next to live blocks can serve larger requests (less fragmentation). False: every segment is a fixed cudaMalloc.</source>
        <translation>True&#x202f;: les segments de chaque stream forment une seule plage d&apos;adresses virtuelles dont les pages sont mappées à mesure qu&apos;elle grandit et démappées quand elles se vident, si bien que la mémoire libérée à côté de blocs vivants peut servir de plus grandes demandes (moins de fragmentation). False&#x202f;: chaque segment est un cudaMalloc fixe.</translation>
    </message>
    <message>
        <source>Cached blocks larger than this are never split to serve a smaller request, and requests larger than it get a block of (about) their own size: big free blocks are kept whole for big requests.</source>
        <translation>Les blocs en cache plus grands que cette taille ne sont jamais découpés pour servir une demande plus petite, et les demandes plus grandes qu&apos;elle reçoivent un bloc de (à peu près) leur propre taille&#x202f;: les grands blocs libres restent entiers pour les grandes demandes.</translation>
    </message>
    <message>
        <source>When reserved memory passes this fraction of the memory allowed (per_process_memory_fraction), cached blocks unused the longest are released before asking cudaMalloc for more.</source>
        <translation>Quand la mémoire réservée dépasse cette fraction de la mémoire permise (per_process_memory_fraction), les blocs en cache inutilisés depuis le plus longtemps sont libérés avant de demander davantage à cudaMalloc.</translation>
    </message>
    <message>
        <source>Requests are rounded up to one of N sizes between two powers of two (per size range) rather than to a multiple of 512 bytes: fewer distinct sizes, so freed blocks fit later requests more often.</source>
        <translation>Les demandes sont arrondies à l&apos;une de N tailles entre deux puissances de deux (par plage de tailles) plutôt qu&apos;à un multiple de 512&#xa0;octets&#x202f;: moins de tailles distinctes, donc les blocs libérés conviennent plus souvent aux demandes suivantes.</translation>
    </message>
    <message>
        <source>The segment a large-pool request below 10 MiB gets (one block of it serves the request, the rest is cached for more).</source>
        <translation>Le segment que reçoit une demande du grand pool de moins de 10&#xa0;Mio (un bloc de ce segment sert la demande, le reste est gardé en cache pour d&apos;autres).</translation>
    </message>
    <message>
        <source>A request above max_split_size may take a cached block up to this much larger (the rest wasted) rather than a new segment.</source>
        <translation>Une demande au-delà de max_split_size peut prendre un bloc en cache plus grand qu&apos;elle d&apos;au plus cette taille (le reste perdu) plutôt qu&apos;un nouveau segment.</translation>
    </message>
    <message>
        <source>Caps this process&apos;s reserved memory at this fraction of the device: above it the allocator frees its cache or raises an out-of-memory error.</source>
        <translation>Plafonne la mémoire réservée de ce processus à cette fraction du GPU&#x202f;: au-delà, l&apos;allocateur libère son cache ou lève une erreur de mémoire épuisée.</translation>
    </message>
    <message>
        <source>Releases the allocator&apos;s lock while cudaMalloc runs, so that other threads may allocate meanwhile.</source>
        <translation>Libère le verrou de l&apos;allocateur pendant que cudaMalloc s&apos;exécute, pour que d&apos;autres fils puissent allouer entre-temps.</translation>
    </message>
    <message>
        <source>timing only: the replay runs one thread</source>
        <translation>ne change que le minutage&#x202f;: la réexécution tourne sur un seul fil</translation>
    </message>
    <message>
        <source>Pinned host memory is malloc&apos;ed and registered with cudaHostRegister rather than made by cudaHostAlloc.</source>
        <translation>La mémoire hôte épinglée est obtenue par malloc puis enregistrée avec cudaHostRegister plutôt que créée par cudaHostAlloc.</translation>
    </message>
    <message>
        <source>The threads that register pinned host memory when pinned_use_cuda_host_register is set.</source>
        <translation>Les fils qui enregistrent la mémoire hôte épinglée quand pinned_use_cuda_host_register est activé.</translation>
    </message>
    <message>
        <source>During CUDA graph capture, blocks freed while used by another stream (record_stream) may be reused once the graph shows that stream is done with them.</source>
        <translation>Pendant la capture d&apos;un graphe CUDA, les blocs libérés alors qu&apos;un autre stream les utilise (record_stream) peuvent être réutilisés dès que le graphe montre que ce stream en a fini avec eux.</translation>
    </message>
    <message>
        <source>graph capture: the replay does not capture</source>
        <translation>capture de graphe&#x202f;: la réexécution ne capture pas</translation>
    </message>
    <message>
        <source>Not described here: a key of a PyTorch newer than this program knows.</source>
        <translation>Non décrite ici&#x202f;: une clé d&apos;un PyTorch plus récent que ceux que ce programme connaît.</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivé</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>illimité</translation>
    </message>
    <message>
        <source>{n} everywhere</source>
        <translation>{n} partout</translation>
    </message>
    <message>
        <source>0 (off)</source>
        <translation>0 (désactivé)</translation>
    </message>
    <message>
        <source>not set (the whole device)</source>
        <translation>non défini (tout le GPU)</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>non défini</translation>
    </message>
    <message>
        <source>PyTorch would refuse its {conf} ({error}): the keys it alone holds show their defaults.</source>
        <translation>PyTorch refuserait son {conf} ({error})&#x202f;: les clés que lui seul contient montrent leurs valeurs par défaut.</translation>
    </message>
    <message>
        <source>The what-if settings are not ones PyTorch would take: {error}</source>
        <translation>PyTorch refuserait les réglages de Et si...&#x202f;: {error}</translation>
    </message>
    <message>
        <source>not recorded; assumed: {default}</source>
        <translation>non enregistré&#x202f;; supposé&#x202f;: {default}</translation>
    </message>
    <message>
        <source>replayed under &quot;{conf}&quot;</source>
        <translation>réexécuté sous &quot;{conf}&quot;</translation>
    </message>
    <message>
        <source>kept as recorded</source>
        <translation>gardé tel qu&apos;enregistré</translation>
    </message>
    <message>
        <source>kept as recorded: {why}</source>
        <translation>gardé tel qu&apos;enregistré&#x202f;: {why}</translation>
    </message>
    <message>
        <source>What if... can change it ({field})</source>
        <translation>Et si... peut le changer ({field})</translation>
    </message>
    <message>
        <source>{value} (changed)</source>
        <translation>{value} (changé)</translation>
    </message>
    <message>
        <source>{value} (as recorded)</source>
        <translation>{value} (tel qu&apos;enregistré)</translation>
    </message>
</context>
<context>
    <name>SettingsView</name>
    <message>
        <source>PYTORCH_CUDA_ALLOC_CONF was not set.</source>
        <translation>PYTORCH_CUDA_ALLOC_CONF n&apos;était pas défini.</translation>
    </message>
    <message>
        <source>default:</source>
        <translation>par défaut&#x202f;:</translation>
    </message>
    <message>
        <source>what if:</source>
        <translation>et si&#x202f;:</translation>
    </message>
</context>
<context>
    <name>SiteTimeline</name>
    <message>
        <source>by allocation site</source>
        <translation>par site d&apos;allocation</translation>
    </message>
    <message>
        <source>by category</source>
        <translation>par catégorie</translation>
    </message>
    <message>
        <source>by stream</source>
        <translation>par stream</translation>
    </message>
    <message>
        <source>by pool</source>
        <translation>par pool</translation>
    </message>
    <message>
        <source>by metadata</source>
        <translation>par métadonnées</translation>
    </message>
    <message>
        <source>Click a band for its site, its stack and its bytes.</source>
        <translation>Cliquez sur une bande pour son site d&apos;appel, sa pile et ses octets.</translation>
    </message>
    <message>
        <source>allocated ({unit})</source>
        <translation>alloué ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>événement de la trace</translation>
    </message>
    <message>
        <source>band</source>
        <translation>bande</translation>
    </message>
    <message>
        <source>at cursor</source>
        <translation>au curseur</translation>
    </message>
    <message>
        <source>own peak</source>
        <translation>son pic</translation>
    </message>
    <message>
        <source>Allocated memory</source>
        <translation>Mémoire allouée</translation>
    </message>
    <message>
        <source>The bands could not be computed: {message}</source>
        <translation>Les bandes n&apos;ont pas pu être calculées&#x202f;: {message}</translation>
    </message>
    <message>
        <source>computing the bands…</source>
        <translation>calcul des bandes…</translation>
    </message>
    <message>
        <source>{bands} {bands:band|bands} over {events} {events:event|events}</source>
        <translation>{bands} {bands:bande|bandes} sur {events} {events:événement|événements}</translation>
    </message>
    <message>
        <source>{bytes} bytes, right after event {event}</source>
        <translation>{bytes} octets, juste après l&apos;événement {event}</translation>
    </message>
    <message>
        <source>{bytes} bytes right after event {event}</source>
        <translation>{bytes} octets juste après l&apos;événement {event}</translation>
    </message>
    <message>
        <source>blocks of many stacks: click for the band&apos;s details</source>
        <translation>blocs de nombreuses piles&#x202f;: cliquez pour les détails de la bande</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>catégorie</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>stream</translation>
    </message>
    <message>
        <source>pool</source>
        <translation>pool</translation>
    </message>
    <message>
        <source>&lt;b&gt;{now}&lt;/b&gt; right after event {event} ({bytes} bytes)&lt;br&gt;its peak: &lt;b&gt;{peak}&lt;/b&gt; right after event {peak_event}</source>
        <translation>&lt;b&gt;{now}&lt;/b&gt; juste après l&apos;événement {event} ({bytes} octets)&lt;br&gt;son pic&#x202f;: &lt;b&gt;{peak}&lt;/b&gt; juste après l&apos;événement {peak_event}</translation>
    </message>
    <message>
        <source>the stack holding most of its bytes</source>
        <translation>la pile qui tient la plupart de ses octets</translation>
    </message>
</context>
<context>
    <name>Sites</name>
    <message>
        <source>no Python frame</source>
        <translation>aucun cadre Python</translation>
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
        <source>backward, node and forward line not recorded</source>
        <translation>passe arrière, nœud et ligne de la passe avant non enregistrés</translation>
    </message>
    <message>
        <source>accumulating a parameter&apos;s .grad (AccumulateGrad)</source>
        <translation>accumulation du .grad d&apos;un paramètre (AccumulateGrad)</translation>
    </message>
    <message>
        <source>backward of an in-place write into a view (CopySlices)</source>
        <translation>passe arrière d&apos;une écriture en place dans une vue (CopySlices)</translation>
    </message>
    <message>
        <source>summing the gradients of a tensor used more than once (InputBuffer)</source>
        <translation>somme des gradients d&apos;un tenseur utilisé plusieurs fois (InputBuffer)</translation>
    </message>
    <message>
        <source>reducing a gradient to its input&apos;s shape (validate_outputs)</source>
        <translation>réduction d&apos;un gradient à la forme de son entrée (validate_outputs)</translation>
    </message>
    <message>
        <source>backward of a Python autograd.Function (PyNode)</source>
        <translation>passe arrière d&apos;une autograd.Function Python (PyNode)</translation>
    </message>
    <message>
        <source>backward of a C++ autograd function (CppNode)</source>
        <translation>passe arrière d&apos;une fonction autograd C++ (CppNode)</translation>
    </message>
    <message>
        <source>the gradient backward starts from (GraphRoot)</source>
        <translation>le gradient d&apos;où part la passe arrière (GraphRoot)</translation>
    </message>
    <message>
        <source>forward line not recorded</source>
        <translation>ligne de la passe avant non enregistrée</translation>
    </message>
    <message>
        <source>backward of {op}</source>
        <translation>passe arrière de {op}</translation>
    </message>
    <message>
        <source>other ({n} {n:site|sites})</source>
        <translation>autres ({n} {n:site d’appel|sites d’appel})</translation>
    </message>
    <message>
        <source>unknown (no frames)</source>
        <translation>inconnu (sans cadres)</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>ligne {line}</translation>
    </message>
    <message>
        <source>native code (no Python frame)</source>
        <translation>code natif (aucun cadre Python)</translation>
    </message>
</context>
<context>
    <name>SnapshotTab</name>
    <message>
        <source>reading the trace...</source>
        <translation>lecture de la trace...</translation>
    </message>
    <message>
        <source>{label}: its blocks</source>
        <translation>{label}&#x202f;: ses blocs</translation>
    </message>
    <message>
        <source>site {site}</source>
        <translation>site d&apos;appel {site}</translation>
    </message>
</context>
<context>
    <name>Span</name>
    <message>
        <source>events {first} to {last}</source>
        <translation>événements {first} à {last}</translation>
    </message>
    <message>
        <source>step {k}</source>
        <translation>pas {k}</translation>
    </message>
</context>
<context>
    <name>SpanMarks</name>
    <message>
        <source>mark {0}</source>
        <translation>repère {0}</translation>
    </message>
    <message>
        <source>Set mark here</source>
        <translation>Placer un repère ici</translation>
    </message>
    <message>
        <source>Span from mark to here</source>
        <translation>Intervalle du repère à ici</translation>
    </message>
    <message>
        <source>Clear marks and span</source>
        <translation>Effacer les repères et l&apos;intervalle</translation>
    </message>
    <message>
        <source>Span Mar&amp;ks</source>
        <translation>&amp;Repères d&apos;intervalle</translation>
    </message>
    <message>
        <source>Set Mark at Cursor	M</source>
        <translation>Repère au curseur	M</translation>
    </message>
    <message>
        <source>Span From Mark to Cursor	Shift+M</source>
        <translation>Intervalle du repère au curseur	Shift+M</translation>
    </message>
    <message>
        <source>Clear Marks and Span	Esc</source>
        <translation>Effacer les repères et l&apos;intervalle	Esc</translation>
    </message>
</context>
<context>
    <name>SpanPanel</name>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>active</source>
        <translation>actif</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segments</translation>
    </message>
    <message>
        <source>at its start</source>
        <translation>au début</translation>
    </message>
    <message>
        <source>at its end</source>
        <translation>à la fin</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>différence</translation>
    </message>
    <message>
        <source>{title}: {amount}</source>
        <translation>{title}&#x202f;: {amount}</translation>
    </message>
    <message>
        <source>Pick a step or a range, or shift-drag across a timeline to select a span.</source>
        <translation>Choisissez un pas ou une plage, ou faites glisser avec Maj sur une chronologie pour sélectionner un intervalle.</translation>
    </message>
    <message>
        <source>{bytes} in {blocks} {blocks:block|blocks}</source>
        <translation>{bytes} dans {blocks} {blocks:bloc|blocs}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>{n} other {n:site|sites}</source>
        <translation>{n} {n:autre site d&apos;appel|autres sites d&apos;appel}</translation>
    </message>
    <message>
        <source>from before the first event to after event {end}</source>
        <translation>d&apos;avant le premier événement à après l&apos;événement {end}</translation>
    </message>
    <message>
        <source>from after event {start} to after event {end}</source>
        <translation>d&apos;après l&apos;événement {start} à après l&apos;événement {end}</translation>
    </message>
    <message>
        <source>what was allocated at the span&apos;s peak, {peak} right after event {event}</source>
        <translation>ce qui était alloué au pic de l&apos;intervalle, {peak} juste après l&apos;événement {event}</translation>
    </message>
    <message>
        <source>allocated in the span and still alive at its end</source>
        <translation>alloués dans l&apos;intervalle et encore vivants à sa fin</translation>
    </message>
    <message>
        <source>freed in the span: its temporaries and what it released</source>
        <translation>libérés dans l&apos;intervalle&#x202f;: ses temporaires et ce qu&apos;il a rendu</translation>
    </message>
    <message>
        <source>allocated and freed inside the span</source>
        <translation>alloués et libérés dans l&apos;intervalle</translation>
    </message>
    <message>
        <source>Left behind</source>
        <translation>Restés alloués</translation>
    </message>
    <message>
        <source>Held the peak</source>
        <translation>Ont tenu le pic</translation>
    </message>
    <message>
        <source>Freed</source>
        <translation>Libérés</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>Temporaires</translation>
    </message>
    <message>
        <source>the steps found and the record_function ranges; a span drawn on a timeline</source>
        <translation>les pas trouvés et les plages record_function&#x202f;; un intervalle tracé sur une chronologie</translation>
    </message>
    <message>
        <source>Whole trace</source>
        <translation>Toute la trace</translation>
    </message>
    <message>
        <source>scope every view to the whole trace again</source>
        <translation>ramener chaque vue à toute la trace</translation>
    </message>
    <message>
        <source>whole trace</source>
        <translation>toute la trace</translation>
    </message>
    <message>
        <source>computing the span&apos;s report...</source>
        <translation>calcul du rapport de l&apos;intervalle...</translation>
    </message>
    <message>
        <source>{span}: allocated in the span and still alive at its end</source>
        <translation>{span}&#x202f;: alloués dans l&apos;intervalle et encore vivants à sa fin</translation>
    </message>
</context>
<context>
    <name>TabControls</name>
    <message>
        <source>all pools</source>
        <translation>tous les pools</translation>
    </message>
    <message>
        <source>small pool</source>
        <translation>petit pool</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>grand pool</translation>
    </message>
    <message>
        <source>private pools</source>
        <translation>pools privés</translation>
    </message>
    <message>
        <source>by site</source>
        <translation>par site d&apos;appel</translation>
    </message>
    <message>
        <source>by age</source>
        <translation>par âge</translation>
    </message>
    <message>
        <source>by address</source>
        <translation>par adresse</translation>
    </message>
    <message>
        <source>by segment, largest first</source>
        <translation>par segment, les plus grands d&apos;abord</translation>
    </message>
    <message>
        <source>by segment, most free first</source>
        <translation>par segment, les plus libres d&apos;abord</translation>
    </message>
    <message>
        <source>by segment, to scale</source>
        <translation>par segment, à l&apos;échelle</translation>
    </message>
    <message>
        <source>by event</source>
        <translation>par événement</translation>
    </message>
    <message>
        <source>by time</source>
        <translation>par temps</translation>
    </message>
    <message>
        <source>indexing the trace...</source>
        <translation>indexation de la trace...</translation>
    </message>
    <message>
        <source>at the snapshot</source>
        <translation>au moment de l&apos;instantané</translation>
    </message>
    <message>
        <source>before the first event</source>
        <translation>avant le premier événement</translation>
    </message>
    <message>
        <source>after event {event} of {events}</source>
        <translation>après l&apos;événement {event} sur {events}</translation>
    </message>
    <message>
        <source>GPU {device}, {where}</source>
        <translation>GPU {device}, {where}</translation>
    </message>
    <message>
        <source>colour allocated blocks by allocation site, or by how long ago they were made</source>
        <translation>colorer les blocs alloués par site d&apos;allocation, ou selon leur ancienneté</translation>
    </message>
    <message>
        <source>search: stack text, 0x or decimal address, or size range like 1MiB-20MiB</source>
        <translation>recherche&#x202f;: texte de pile, adresse 0x ou décimale, ou plage de tailles comme 1MiB-20MiB</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Lecture</translation>
    </message>
    <message>
        <source>{n} {n:match|matches}</source>
        <translation>{n} {n:résultat|résultats}</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>all streams</source>
        <translation>tous les streams</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>memory</source>
        <translation>mémoire</translation>
    </message>
    <message>
        <source>allocated by site</source>
        <translation>alloué par site d&apos;appel</translation>
    </message>
    <message>
        <source>cached segments</source>
        <translation>segments en cache</translation>
    </message>
    <message>
        <source>by pool</source>
        <translation>par pool</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>pile</translation>
    </message>
    <message>
        <source>forward stack</source>
        <translation>pile de la passe avant</translation>
    </message>
    <message>
        <source>event</source>
        <translation>événement</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloc</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocs</translation>
    </message>
    <message>
        <source>settings</source>
        <translation>paramètres</translation>
    </message>
    <message>
        <source>span</source>
        <translation>intervalle</translation>
    </message>
    <message>
        <source>flame</source>
        <translation>flammes</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>free (cached)</source>
        <translation>libre (en cache)</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>plus grand bloc libre</translation>
    </message>
    <message>
        <source>no events on this device</source>
        <translation>aucun événement sur ce périphérique</translation>
    </message>
    <message>
        <source>fragmentation (%)</source>
        <translation>fragmentation (%)</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>mémoire ({unit})</translation>
    </message>
    <message>
        <source>seconds since the first event</source>
        <translation>secondes depuis le premier événement</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>événement de la trace</translation>
    </message>
    <message>
        <source>external fragmentation (right axis)</source>
        <translation>fragmentation externe (axe de droite)</translation>
    </message>
    <message>
        <source>record_function range</source>
        <translation>plage record_function</translation>
    </message>
    <message>
        <source>Explain the OOM at event {event}</source>
        <translation>Expliquer l&apos;OOM de l&apos;événement {event}</translation>
    </message>
    <message>
        <source>Explain event {event}</source>
        <translation>Expliquer l&apos;événement {event}</translation>
    </message>
    <message>
        <source>Explain the first OOM</source>
        <translation>Expliquer le premier OOM</translation>
    </message>
    <message>
        <source>Explain the peak</source>
        <translation>Expliquer le pic</translation>
    </message>
</context>
</TS>
