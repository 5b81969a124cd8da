<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>Breakdown</name>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>{pool} pool</source>
        <translation>pool {pool}</translation>
    </message>
    <message>
        <source>By category</source>
        <translation>Par catégorie</translation>
    </message>
    <message>
        <source>By stream</source>
        <translation>Par stream</translation>
    </message>
    <message>
        <source>By pool</source>
        <translation>Par pool</translation>
    </message>
    <message>
        <source>By metadata</source>
        <translation>Par métadonnées</translation>
    </message>
    <message>
        <source>nothing allocated</source>
        <translation>rien d&apos;alloué</translation>
    </message>
    <message>
        <source>small</source>
        <translation>petit</translation>
    </message>
    <message>
        <source>large</source>
        <translation>grand</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privé</translation>
    </message>
    <message>
        <source>allocated before recording began</source>
        <translation>alloué avant le début de l&apos;enregistrement</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>aucune pile enregistrée</translation>
    </message>
    <message>
        <source>{bytes} in {blocks} {blocks:block|blocks}</source>
        <translation>{bytes} dans {blocks} {blocks:bloc|blocs}</translation>
    </message>
    <message>
        <source>Live bytes by allocation site: module, function, line. Pick a line to mark its blocks.</source>
        <translation>Octets vivants par site d&apos;allocation&#x202f;: module, fonction, ligne. Choisissez une ligne pour marquer ses blocs.</translation>
    </message>
    <message>
        <source>No breakdown yet.</source>
        <translation>Pas encore de répartition.</translation>
    </message>
    <message>
        <source>Live bytes before the first event:</source>
        <translation>Octets vivants avant le premier événement&#x202f;:</translation>
    </message>
    <message>
        <source>Live bytes after event {event}:</source>
        <translation>Octets vivants après l&apos;événement {event}&#x202f;:</translation>
    </message>
    <message>
        <source>{bytes} allocated in {blocks} {blocks:block|blocks}, {sites} {sites:site|sites}</source>
        <translation>{bytes} alloués dans {blocks} {blocks:bloc|blocs}, {sites} {sites:site d&apos;appel|sites d&apos;appel}</translation>
    </message>
    <message>
        <source>Could not find what holds the memory:</source>
        <translation>Impossible de trouver ce qui tient la mémoire&#x202f;:</translation>
    </message>
</context>
<context>
    <name>Categories</name>
    <message>
        <source>unknown (no rule matched)</source>
        <translation>inconnu (aucune règle ne correspond)</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>octets</translation>
    </message>
    <message>
        <source>share</source>
        <translation>part</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocs</translation>
    </message>
    <message>
        <source>per step</source>
        <translation>par pas</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>pas</translation>
    </message>
    <message>
        <source>at first step</source>
        <translation>au premier pas</translation>
    </message>
    <message>
        <source>at last step</source>
        <translation>au dernier pas</translation>
    </message>
</context>
<context>
    <name>ExplainPanel</name>
    <message>
        <source>OOM at event {event}</source>
        <translation>OOM à l&apos;événement {event}</translation>
    </message>
    <message>
        <source>peak of allocated at event {event}</source>
        <translation>pic de l&apos;alloué à l&apos;événement {event}</translation>
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
        <source>at event {event}</source>
        <translation>à l&apos;événement {event}</translation>
    </message>
    <message>
        <source>Explain an OOM or the peak to see why.</source>
        <translation>Expliquez un OOM ou le pic pour voir pourquoi.</translation>
    </message>
    <message>
        <source>explaining {what}...</source>
        <translation>explication de {what}...</translation>
    </message>
    <message>
        <source>explaining...</source>
        <translation>explication...</translation>
    </message>
    <message>
        <source>The recorded allocations are replayed under each candidate setting; this takes a few seconds on long traces.</source>
        <translation>Les allocations enregistrées sont rejouées sous chaque réglage candidat&#x202f;; cela prend quelques secondes sur les longues traces.</translation>
    </message>
    <message>
        <source>Could not explain:</source>
        <translation>Impossible d&apos;expliquer&#x202f;:</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Ce qui s&apos;est passé</translation>
    </message>
    <message>
        <source>What to try</source>
        <translation>Ce que vous pouvez essayer</translation>
    </message>
    <message>
        <source>Key figures</source>
        <translation>Chiffres clés</translation>
    </message>
    <message>
        <source>What holds the memory</source>
        <translation>Ce qui tient la mémoire</translation>
    </message>
    <message>
        <source> (of {n} {n:event|events})</source>
        <translation> (sur {n} {n:événement|événements})</translation>
    </message>
    <message>
        <source> Click the moment to travel there.</source>
        <translation> Cliquez sur le moment pour y aller.</translation>
    </message>
    <message>
        <source>Device {device}:</source>
        <translation>Périphérique {device}&#x202f;:</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>free in the cache</source>
        <translation>libre dans le cache</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>plus grand bloc libre</translation>
    </message>
    <message>
        <source>small</source>
        <translation>petit</translation>
    </message>
    <message>
        <source>large</source>
        <translation>grand</translation>
    </message>
    <message>
        <source>new segment needed</source>
        <translation>nouveau segment nécessaire</translation>
    </message>
    <message>
        <source>pages to map ({page} each)</source>
        <translation>pages à mapper ({page} chacune)</translation>
    </message>
    <message>
        <source>free in its pool ({pool}, stream {stream})</source>
        <translation>libre dans son pool ({pool}, stream {stream})</translation>
    </message>
    <message>
        <source>request (rounded)</source>
        <translation>demande (arrondie)</translation>
    </message>
    <message>
        <source>device free (cudaMemGetInfo)</source>
        <translation>libre sur le périphérique (cudaMemGetInfo)</translation>
    </message>
    <message>
        <source>largest hole in its pool</source>
        <translation>plus grand trou de son pool</translation>
    </message>
    <message>
        <source>would have fitted up to</source>
        <translation>aurait tenu jusqu&apos;à</translation>
    </message>
    <message>
        <source>{n} bytes</source>
        <translation>{n} octets</translation>
    </message>
    <message>
        <source>Nothing is allocated at this moment.</source>
        <translation>Rien n&apos;est alloué à ce moment.</translation>
    </message>
    <message>
        <source> (the {top} largest of {n})</source>
        <translation> (les {top} plus grands sur {n})</translation>
    </message>
    <message>
        <source>By site</source>
        <translation>Par site d&apos;appel</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>Remarque&#x202f;:</translation>
    </message>
    <message>
        <source>cannot judge</source>
        <translation>impossible à juger</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Montrer</translation>
    </message>
    <message>
        <source>the program makes the same requests in the same order</source>
        <translation>le programme fait les mêmes demandes dans le même ordre</translation>
    </message>
    <message>
        <source>change</source>
        <translation>changement</translation>
    </message>
    <message>
        <source>frees now</source>
        <translation>libère maintenant</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>tient</translation>
    </message>
    <message>
        <source>OOMs</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>peak reserved</source>
        <translation>pic réservé</translation>
    </message>
    <message>
        <source>event {event}</source>
        <translation>l&apos;événement {event}</translation>
    </message>
</context>
<context>
    <name>Findings</name>
    <message>
        <source>Normal: most of reserved; the rest is the cache&apos;s free and pending memory.</source>
        <translation>Normal&#x202f;: la plus grande part du réservé&#x202f;; le reste est la mémoire libre et en attente du cache.</translation>
    </message>
    <message>
        <source>Normal: a few % of allocated; more means many requests just above a rounding step.</source>
        <translation>Normal&#x202f;: quelques % de l&apos;alloué&#x202f;; davantage signifie beaucoup de demandes juste au-dessus d&apos;un pas d&apos;arrondi.</translation>
    </message>
    <message>
        <source>Normal: near 0; it grows when tensors are used on other streams (record_stream).</source>
        <translation>Normal&#x202f;: proche de 0&#x202f;; il croît quand des tenseurs sont utilisés sur d&apos;autres streams (record_stream).</translation>
    </message>
    <message>
        <source>Normal: under 20% of reserved or under 1 GiB: memory the cache keeps for the next requests.</source>
        <translation>Normal&#x202f;: moins de 20 % du réservé ou moins de 1 Gio&#x202f;: de la mémoire que le cache garde pour les demandes suivantes.</translation>
    </message>
    <message>
        <source>Normal: close to all of free (then fragmentation is low).</source>
        <translation>Normal&#x202f;: presque tout le libre (la fragmentation est alors faible).</translation>
    </message>
    <message>
        <source>Normal: small; it is the part of free that empty_cache() cannot return.</source>
        <translation>Normal&#x202f;: petit&#x202f;; c&apos;est la part du libre que empty_cache() ne peut pas rendre.</translation>
    </message>
    <message>
        <source>What it means: 1 - largest hole / free. At 80% the largest hole holds a fifth of the free memory, and a larger request needs new memory from CUDA although the total free would be enough.
It matters only when much is free (20% of reserved and 1 GiB); with little free it is harmless. Under 50% is normal.</source>
        <translation>Ce que cela signifie&#x202f;: 1 - plus grand trou / libre. À 80 % le plus grand trou tient un cinquième de la mémoire libre, et une demande plus grande exige de la mémoire neuve de CUDA bien que le libre total suffirait.
Cela ne compte que si beaucoup est libre (20 % du réservé et 1 Gio)&#x202f;; avec peu de libre c&apos;est sans danger. Sous 50 % c&apos;est normal.</translation>
    </message>
    <message>
        <source>caused this OOM</source>
        <translation>a causé cet OOM</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>normale</translation>
    </message>
    <message>
        <source>high, little free</source>
        <translation>élevée, peu de libre</translation>
    </message>
    <message>
        <source>high</source>
        <translation>élevée</translation>
    </message>
    <message>
        <source>Nothing is reserved here: no segments to look at.</source>
        <translation>Rien n&apos;est réservé ici&#x202f;: aucun segment à regarder.</translation>
    </message>
    <message>
        <source>OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache (largest hole {largest}): enough in total, but no hole that large.</source>
        <translation>OOM à l&apos;événement {event} (et {more} de plus)&#x202f;: une demande de {requested} a échoué avec {free} libres dans le cache (plus grand trou {largest})&#x202f;: assez au total, mais aucun trou aussi grand.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole {largest}): enough in total, but no hole that large.</source>
        <translation>OOM à l&apos;événement {event}&#x202f;: une demande de {requested} a échoué avec {free} libres dans le cache (plus grand trou {largest})&#x202f;: assez au total, mais aucun trou aussi grand.</translation>
    </message>
    <message>
        <source>OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache (largest hole {largest}) and {device_free} on the device: the memory was in use.</source>
        <translation>OOM à l&apos;événement {event} (et {more} de plus)&#x202f;: une demande de {requested} a échoué avec {free} libres dans le cache (plus grand trou {largest}) et {device_free} sur le périphérique&#x202f;: la mémoire était utilisée.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole {largest}) and {device_free} on the device: the memory was in use.</source>
        <translation>OOM à l&apos;événement {event}&#x202f;: une demande de {requested} a échoué avec {free} libres dans le cache (plus grand trou {largest}) et {device_free} sur le périphérique&#x202f;: la mémoire était utilisée.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free: empty_cache() would return it to CUDA.</source>
        <translation>{free} ({share}) du réservé est en cache mais libre&#x202f;: empty_cache() le rendrait à CUDA.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free, all in segments with live blocks: empty_cache() cannot return it; expandable_segments:True can.</source>
        <translation>{free} ({share}) du réservé est en cache mais libre, entièrement dans des segments à blocs vivants&#x202f;: empty_cache() ne peut pas le rendre&#x202f;; expandable_segments:True le peut.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free: empty_cache() would return {returned}; the other {split} shares segments with live blocks.</source>
        <translation>{free} ({share}) du réservé est en cache mais libre&#x202f;: empty_cache() rendrait {returned}&#x202f;; les {split} restants partagent des segments avec des blocs vivants.</translation>
    </message>
    <message>
        <source>Fragmentation {fragmentation} matters little: only {free} ({share}) is free.</source>
        <translation>Une fragmentation de {fragmentation} compte peu&#x202f;: seuls {free} ({share}) sont libres.</translation>
    </message>
    <message>
        <source>Fragmentation {fragmentation}: the largest hole is {largest} of {free} free; a larger request needs new memory from CUDA.</source>
        <translation>Fragmentation {fragmentation}&#x202f;: le plus grand trou fait {largest} sur {free} libres&#x202f;; une demande plus grande exige de la mémoire neuve de CUDA.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole now (the largest is {limit}).</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; {unfit} d&apos;entre elles ne {unfit:tient|tiennent} dans aucun trou maintenant (le plus grand fait {limit}).</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole now (the largest is {limit}); {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; {unfit} d&apos;entre elles ne {unfit:tient|tiennent} dans aucun trou maintenant (le plus grand fait {limit})&#x202f;; {useless} ({share} du libre) sont dans des trous trop petits pour toutes.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is {limit}).</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; elle ne tient dans aucun trou maintenant (le plus grand fait {limit}).</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is {limit}); {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; elle ne tient dans aucun trou maintenant (le plus grand fait {limit})&#x202f;; {useless} ({share} du libre) sont dans des trous trop petits pour toutes.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could take the largest.</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; seuls {takers} {takers:trou|trous} pourraient prendre la plus grande.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could take the largest; {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Les {n} {n:allocation suivante|allocations suivantes} demandent jusqu&apos;à {biggest}&#x202f;; seuls {takers} {takers:trou|trous} pourraient prendre la plus grande&#x202f;; {useless} ({share} du libre) sont dans des trous trop petits pour toutes.</translation>
    </message>
    <message>
        <source>These figures look normal: {used} of reserved is allocated, {free} is cached free.</source>
        <translation>Ces chiffres semblent normaux&#x202f;: {used} du réservé est alloué, {free} est libre en cache.</translation>
    </message>
</context>
<context>
    <name>Growth</name>
    <message>
        <source>Nothing grows from step to step over {n} steps ({how}).</source>
        <translation>Rien ne croît d&apos;un pas à l&apos;autre sur {n} pas ({how}).</translation>
    </message>
    <message>
        <source>1 allocation site grows from step to step over {n} steps ({how}).</source>
        <translation>1 site d&apos;allocation croît d&apos;un pas à l&apos;autre sur {n} pas ({how}).</translation>
    </message>
    <message>
        <source>{sites} allocation sites grow from step to step over {n} steps ({how}).</source>
        <translation>{sites} sites d&apos;allocation croissent d&apos;un pas à l&apos;autre sur {n} pas ({how}).</translation>
    </message>
    <message>
        <source>no repeating steps found: the file has no trace</source>
        <translation>aucun pas répété trouvé&#x202f;: le fichier n&apos;a pas de trace</translation>
    </message>
    <message>
        <source>no repeating steps found: no record_function range, phase or allocation repeats {n} times or more at a steady pace, so growth from step to step was not measured</source>
        <translation>aucun pas répété trouvé&#x202f;: aucune plage record_function, phase ou allocation ne se répète {n} fois ou plus à un rythme régulier, donc la croissance d&apos;un pas à l&apos;autre n&apos;a pas été mesurée</translation>
    </message>
    <message>
        <source>the end of each of the {n} &apos;{name}&apos; ranges recorded with record_function</source>
        <translation>la fin de chacune des {n} plages « {name} » enregistrées avec record_function</translation>
    </message>
    <message>
        <source>the end of each of the {n} {name} phases, read from the stacks&apos; frames</source>
        <translation>la fin de chacune des {n} phases {name}, lues dans les cadres des piles</translation>
    </message>
    <message>
        <source>just before each of the {n} allocations from {where}, one every ~{gap} events</source>
        <translation>juste avant chacune des {n} allocations de {where}, une tous les ~{gap} événements</translation>
    </message>
</context>
<context>
    <name>GrowthView</name>
    <message>
        <source>allocated in: {phase}
grows by {per_step} per step (least squares over the steps)
held more after {increases} of the {steps} steps after the first measured
{first} at the first step, {last} at the last</source>
        <translation>alloué dans&#x202f;: {phase}
croît de {per_step} par pas (moindres carrés sur les pas)
a tenu davantage après {increases} des {steps} pas suivant le premier mesuré
{first} au premier pas, {last} au dernier</translation>
    </message>
    <message>
        <source>Growth from step to step could not be found: {message}</source>
        <translation>La croissance d&apos;un pas à l&apos;autre n&apos;a pas pu être trouvée&#x202f;: {message}</translation>
    </message>
    <message>
        <source>{site}: {bytes} more per step</source>
        <translation>{site}&#x202f;: {bytes} de plus par pas</translation>
    </message>
    <message>
        <source>Growth from step to step: not computed yet.</source>
        <translation>Croissance d&apos;un pas à l&apos;autre&#x202f;: pas encore calculée.</translation>
    </message>
    <message>
        <source> A site counts as growing at {size} or more a step, holding more after {share} of the steps.</source>
        <translation> Un site d&apos;appel compte comme croissant à partir de {size} par pas, s&apos;il tient davantage après {share} des pas.</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>explain</source>
        <translation>explication</translation>
    </message>
    <message>
        <source>by site</source>
        <translation>par site d&apos;appel</translation>
    </message>
    <message>
        <source>grows</source>
        <translation>croissance</translation>
    </message>
</context>
</TS>
