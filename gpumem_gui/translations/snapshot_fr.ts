<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
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
        <translation>Ce que le programme a demandé&#x202f;; sous l&apos;alloué de l&apos;arrondi à 512 octets.</translation>
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
        <source>OOM request</source>
        <translation>demande de l&apos;OOM</translation>
    </message>
    <message>
        <source>free</source>
        <translation>libre</translation>
    </message>
    <message>
        <source>free on the device</source>
        <translation>libre sur le périphérique</translation>
    </message>
    <message>
        <source>next requests</source>
        <translation>demandes suivantes</translation>
    </message>
    <message>
        <source>largest next request</source>
        <translation>plus grande demande suivante</translation>
    </message>
    <message>
        <source>holes taking the largest</source>
        <translation>trous qui peuvent prendre la plus grande</translation>
    </message>
    <message>
        <source>requests fitting no hole</source>
        <translation>demandes qui ne tiennent dans aucun trou</translation>
    </message>
    <message>
        <source>free in holes too small</source>
        <translation>libre dans des trous trop petits</translation>
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
    <name>Findings</name>
    <message>
        <source>high, little free</source>
        <translation>élevée, peu de libre</translation>
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
</TS>
