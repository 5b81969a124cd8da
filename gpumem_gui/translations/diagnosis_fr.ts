<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>Columns</name>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
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
