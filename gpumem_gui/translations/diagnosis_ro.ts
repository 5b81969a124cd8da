<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
<context>
    <name>Columns</name>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>per step</source>
        <translation>pe pas</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>pași</translation>
    </message>
    <message>
        <source>at first step</source>
        <translation>la primul pas</translation>
    </message>
    <message>
        <source>at last step</source>
        <translation>la ultimul pas</translation>
    </message>
</context>
<context>
    <name>Findings</name>
    <message>
        <source>Normal: most of reserved; the rest is the cache&apos;s free and pending memory.</source>
        <translation>Normal: cea mai mare parte din rezervat; restul este memoria liberă și în așteptare a cache-ului.</translation>
    </message>
    <message>
        <source>Normal: a few % of allocated; more means many requests just above a rounding step.</source>
        <translation>Normal: câteva procente din alocat; mai mult înseamnă multe cereri chiar peste un pas de rotunjire.</translation>
    </message>
    <message>
        <source>Normal: near 0; it grows when tensors are used on other streams (record_stream).</source>
        <translation>Normal: aproape 0; crește când tensorii sunt folosiți pe alte stream-uri (record_stream).</translation>
    </message>
    <message>
        <source>Normal: under 20% of reserved or under 1 GiB: memory the cache keeps for the next requests.</source>
        <translation>Normal: sub 20 % din rezervat sau sub 1 GiB: memorie pe care cache-ul o păstrează pentru cererile următoare.</translation>
    </message>
    <message>
        <source>Normal: close to all of free (then fragmentation is low).</source>
        <translation>Normal: aproape tot liberul (atunci fragmentarea este mică).</translation>
    </message>
    <message>
        <source>Normal: small; it is the part of free that empty_cache() cannot return.</source>
        <translation>Normal: mic; este partea din liber pe care empty_cache() nu o poate returna.</translation>
    </message>
    <message>
        <source>What it means: 1 - largest hole / free. At 80% the largest hole holds a fifth of the free memory, and a larger request needs new memory from CUDA although the total free would be enough.
It matters only when much is free (20% of reserved and 1 GiB); with little free it is harmless. Under 50% is normal.</source>
        <translation>Ce înseamnă: 1 - cel mai mare gol / liber. La 80 % cel mai mare gol ține o cincime din memoria liberă, iar o cerere mai mare are nevoie de memorie nouă de la CUDA, deși liberul total ar ajunge.
Contează doar când este mult liber (20 % din rezervat și 1 GiB); cu puțin liber este inofensivă. Sub 50 % este normal.</translation>
    </message>
    <message>
        <source>caused this OOM</source>
        <translation>a cauzat acest OOM</translation>
    </message>
    <message>
        <source>normal</source>
        <translation>normal</translation>
    </message>
    <message>
        <source>high, little free</source>
        <translation>mare, puțin liber</translation>
    </message>
    <message>
        <source>high</source>
        <translation>mare</translation>
    </message>
    <message>
        <source>Nothing is reserved here: no segments to look at.</source>
        <translation>Nimic nu este rezervat aici: niciun segment de privit.</translation>
    </message>
    <message>
        <source>OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache (largest hole {largest}): enough in total, but no hole that large.</source>
        <translation>OOM la evenimentul {event} (și încă {more}): o cerere de {requested} a eșuat cu {free} libere în cache (cel mai mare gol {largest}): destul în total, dar niciun gol atât de mare.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole {largest}): enough in total, but no hole that large.</source>
        <translation>OOM la evenimentul {event}: o cerere de {requested} a eșuat cu {free} libere în cache (cel mai mare gol {largest}): destul în total, dar niciun gol atât de mare.</translation>
    </message>
    <message>
        <source>OOM at event {event} (and {more} more): a request of {requested} failed with {free} free in the cache (largest hole {largest}) and {device_free} on the device: the memory was in use.</source>
        <translation>OOM la evenimentul {event} (și încă {more}): o cerere de {requested} a eșuat cu {free} libere în cache (cel mai mare gol {largest}) și {device_free} pe dispozitiv: memoria era folosită.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed with {free} free in the cache (largest hole {largest}) and {device_free} on the device: the memory was in use.</source>
        <translation>OOM la evenimentul {event}: o cerere de {requested} a eșuat cu {free} libere în cache (cel mai mare gol {largest}) și {device_free} pe dispozitiv: memoria era folosită.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free: empty_cache() would return it to CUDA.</source>
        <translation>{free} ({share}) din rezervat este în cache, dar liber: empty_cache() l-ar returna către CUDA.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free, all in segments with live blocks: empty_cache() cannot return it; expandable_segments:True can.</source>
        <translation>{free} ({share}) din rezervat este în cache, dar liber, totul în segmente cu blocuri active: empty_cache() nu îl poate returna; expandable_segments:True poate.</translation>
    </message>
    <message>
        <source>{free} ({share}) of reserved is cached but free: empty_cache() would return {returned}; the other {split} shares segments with live blocks.</source>
        <translation>{free} ({share}) din rezervat este în cache, dar liber: empty_cache() ar returna {returned}; restul de {split} împarte segmente cu blocuri active.</translation>
    </message>
    <message>
        <source>Fragmentation {fragmentation} matters little: only {free} ({share}) is free.</source>
        <translation>Fragmentarea de {fragmentation} contează puțin: doar {free} ({share}) sunt libere.</translation>
    </message>
    <message>
        <source>Fragmentation {fragmentation}: the largest hole is {largest} of {free} free; a larger request needs new memory from CUDA.</source>
        <translation>Fragmentare {fragmentation}: cel mai mare gol are {largest} din {free} libere; o cerere mai mare are nevoie de memorie nouă de la CUDA.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole now (the largest is {limit}).</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; {unfit} dintre ele nu {unfit:încape|încap|încap} acum în niciun gol (cel mai mare are {limit}).</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; {unfit} of them {unfit:fits|fit} no hole now (the largest is {limit}); {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; {unfit} dintre ele nu {unfit:încape|încap|încap} acum în niciun gol (cel mai mare are {limit}); {useless} ({share} din liber) stau în goluri prea mici pentru oricare.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is {limit}).</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; nu încape acum în niciun gol (cel mai mare are {limit}).</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; it fits no hole now (the largest is {limit}); {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; nu încape acum în niciun gol (cel mai mare are {limit}); {useless} ({share} din liber) stau în goluri prea mici pentru oricare.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could take the largest.</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; doar {takers} {takers:gol|goluri|de goluri} ar putea-o lua pe cea mai mare.</translation>
    </message>
    <message>
        <source>The next {n} {n:allocation|allocations} ask for up to {biggest}; only {takers} {takers:hole|holes} could take the largest; {useless} ({share} of free) is in holes too small for any.</source>
        <translation>Următoarele {n} {n:alocare|alocări|de alocări} cer până la {biggest}; doar {takers} {takers:gol|goluri|de goluri} ar putea-o lua pe cea mai mare; {useless} ({share} din liber) stau în goluri prea mici pentru oricare.</translation>
    </message>
    <message>
        <source>These figures look normal: {used} of reserved is allocated, {free} is cached free.</source>
        <translation>Aceste cifre par normale: {used} din rezervat este alocat, {free} este liber în cache.</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>explain</source>
        <translation>explicație</translation>
    </message>
    <message>
        <source>by site</source>
        <translation>pe loc de apel</translation>
    </message>
    <message>
        <source>grows</source>
        <translation>creșteri</translation>
    </message>
</context>
</TS>
