<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
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
        <translation>Pe categorie</translation>
    </message>
    <message>
        <source>By stream</source>
        <translation>Pe stream</translation>
    </message>
    <message>
        <source>By pool</source>
        <translation>Pe pool</translation>
    </message>
    <message>
        <source>By metadata</source>
        <translation>Pe metadate</translation>
    </message>
    <message>
        <source>nothing allocated</source>
        <translation>nimic alocat</translation>
    </message>
    <message>
        <source>small</source>
        <translation>mic</translation>
    </message>
    <message>
        <source>large</source>
        <translation>mare</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privat</translation>
    </message>
    <message>
        <source>allocated before recording began</source>
        <translation>alocat înainte de începutul înregistrării</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
    <message>
        <source>{bytes} in {blocks} {blocks:block|blocks}</source>
        <translation>{bytes} în {blocks} {blocks:bloc|blocuri|de blocuri}</translation>
    </message>
    <message>
        <source>Live bytes by allocation site: module, function, line. Pick a line to mark its blocks.</source>
        <translation>Octeți activi pe loc de alocare: modul, funcție, linie. Alegeți o linie pentru a-i marca blocurile.</translation>
    </message>
    <message>
        <source>No breakdown yet.</source>
        <translation>Încă nicio defalcare.</translation>
    </message>
    <message>
        <source>Live bytes before the first event:</source>
        <translation>Octeți activi înainte de primul eveniment:</translation>
    </message>
    <message>
        <source>Live bytes after event {event}:</source>
        <translation>Octeți activi după evenimentul {event}:</translation>
    </message>
    <message>
        <source>{bytes} allocated in {blocks} {blocks:block|blocks}, {sites} {sites:site|sites}</source>
        <translation>{bytes} alocați în {blocks} {blocks:bloc|blocuri|de blocuri}, {sites} {sites:loc de apel|locuri de apel|de locuri de apel}</translation>
    </message>
    <message>
        <source>Could not find what holds the memory:</source>
        <translation>Nu s-a putut afla ce ține memoria:</translation>
    </message>
</context>
<context>
    <name>Categories</name>
    <message>
        <source>unknown (no rule matched)</source>
        <translation>necunoscut (nicio regulă nu s-a potrivit)</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>octeți</translation>
    </message>
    <message>
        <source>share</source>
        <translation>parte</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocuri</translation>
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
    <name>ExplainPanel</name>
    <message>
        <source>OOM at event {event}</source>
        <translation>OOM la evenimentul {event}</translation>
    </message>
    <message>
        <source>peak of allocated at event {event}</source>
        <translation>vârful alocării la evenimentul {event}</translation>
    </message>
    <message>
        <source>at the snapshot</source>
        <translation>la momentul instantaneului</translation>
    </message>
    <message>
        <source>before the first event</source>
        <translation>înainte de primul eveniment</translation>
    </message>
    <message>
        <source>at event {event}</source>
        <translation>la evenimentul {event}</translation>
    </message>
    <message>
        <source>Explain an OOM or the peak to see why.</source>
        <translation>Explicați un OOM sau vârful pentru a vedea de ce.</translation>
    </message>
    <message>
        <source>explaining {what}...</source>
        <translation>se explică {what}...</translation>
    </message>
    <message>
        <source>explaining...</source>
        <translation>se explică...</translation>
    </message>
    <message>
        <source>The recorded allocations are replayed under each candidate setting; this takes a few seconds on long traces.</source>
        <translation>Alocările înregistrate sunt rejucate sub fiecare setare candidată; durează câteva secunde pe înregistrări lungi.</translation>
    </message>
    <message>
        <source>Could not explain:</source>
        <translation>Nu s-a putut explica:</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Ce s-a întâmplat</translation>
    </message>
    <message>
        <source>What to try</source>
        <translation>Ce puteți încerca</translation>
    </message>
    <message>
        <source>Key figures</source>
        <translation>Cifre-cheie</translation>
    </message>
    <message>
        <source>What holds the memory</source>
        <translation>Ce ține memoria</translation>
    </message>
    <message>
        <source> (of {n} {n:event|events})</source>
        <translation> (din {n} {n:eveniment|evenimente|de evenimente})</translation>
    </message>
    <message>
        <source> Click the moment to travel there.</source>
        <translation> Faceți clic pe moment pentru a merge acolo.</translation>
    </message>
    <message>
        <source>Device {device}:</source>
        <translation>Dispozitivul {device}:</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>free in the cache</source>
        <translation>liber în cache</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>cel mai mare bloc liber</translation>
    </message>
    <message>
        <source>small</source>
        <translation>mic</translation>
    </message>
    <message>
        <source>large</source>
        <translation>mare</translation>
    </message>
    <message>
        <source>new segment needed</source>
        <translation>segment nou necesar</translation>
    </message>
    <message>
        <source>pages to map ({page} each)</source>
        <translation>pagini de mapat (câte {page})</translation>
    </message>
    <message>
        <source>free in its pool ({pool}, stream {stream})</source>
        <translation>liber în pool-ul său ({pool}, stream {stream})</translation>
    </message>
    <message>
        <source>request (rounded)</source>
        <translation>cerere (rotunjită)</translation>
    </message>
    <message>
        <source>device free (cudaMemGetInfo)</source>
        <translation>liber pe dispozitiv (cudaMemGetInfo)</translation>
    </message>
    <message>
        <source>largest hole in its pool</source>
        <translation>cel mai mare gol din pool-ul său</translation>
    </message>
    <message>
        <source>would have fitted up to</source>
        <translation>ar fi încăput până la</translation>
    </message>
    <message>
        <source>{n} bytes</source>
        <translation>{n} octeți</translation>
    </message>
    <message>
        <source>Nothing is allocated at this moment.</source>
        <translation>Nimic nu este alocat în acest moment.</translation>
    </message>
    <message>
        <source> (the {top} largest of {n})</source>
        <translation> (cele mai mari {top} din {n})</translation>
    </message>
    <message>
        <source>By site</source>
        <translation>Pe loc de apel</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>Notă:</translation>
    </message>
    <message>
        <source>cannot judge</source>
        <translation>nu se poate judeca</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>da</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nu</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Arătați</translation>
    </message>
    <message>
        <source>the program makes the same requests in the same order</source>
        <translation>programul face aceleași cereri în aceeași ordine</translation>
    </message>
    <message>
        <source>change</source>
        <translation>schimbare</translation>
    </message>
    <message>
        <source>frees now</source>
        <translation>eliberează acum</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>încape</translation>
    </message>
    <message>
        <source>OOMs</source>
        <translation>OOM-uri</translation>
    </message>
    <message>
        <source>peak reserved</source>
        <translation>vârf rezervat</translation>
    </message>
    <message>
        <source>event {event}</source>
        <translation>evenimentul {event}</translation>
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
    <name>Growth</name>
    <message>
        <source>Nothing grows from step to step over {n} steps ({how}).</source>
        <translation>Nimic nu crește de la un pas la altul pe {n} {n:pas|pași|de pași} ({how}).</translation>
    </message>
    <message>
        <source>1 allocation site grows from step to step over {n} steps ({how}).</source>
        <translation>1 loc de alocare crește de la un pas la altul pe {n} {n:pas|pași|de pași} ({how}).</translation>
    </message>
    <message>
        <source>{sites} allocation sites grow from step to step over {n} steps ({how}).</source>
        <translation>{sites} {sites:loc de alocare crește|locuri de alocare cresc|de locuri de alocare cresc} de la un pas la altul pe {n} {n:pas|pași|de pași} ({how}).</translation>
    </message>
    <message>
        <source>no repeating steps found: the file has no trace</source>
        <translation>niciun pas repetat găsit: fișierul nu are jurnal de evenimente</translation>
    </message>
    <message>
        <source>no repeating steps found: no record_function range, phase or allocation repeats {n} times or more at a steady pace, so growth from step to step was not measured</source>
        <translation>niciun pas repetat găsit: niciun interval record_function, nicio fază și nicio alocare nu se repetă de {n} ori sau mai mult într-un ritm constant, așa că creșterea de la un pas la altul nu a fost măsurată</translation>
    </message>
    <message>
        <source>the end of each of the {n} &apos;{name}&apos; ranges recorded with record_function</source>
        <translation>sfârșitul fiecăruia dintre cele {n} intervale „{name}” înregistrate cu record_function</translation>
    </message>
    <message>
        <source>the end of each of the {n} {name} phases, read from the stacks&apos; frames</source>
        <translation>sfârșitul fiecăreia dintre cele {n} faze {name}, citite din cadrele stivelor</translation>
    </message>
    <message>
        <source>just before each of the {n} allocations from {where}, one every ~{gap} events</source>
        <translation>chiar înainte de fiecare dintre cele {n} {n:alocare|alocări|de alocări} din {where}, una la ~{gap} evenimente</translation>
    </message>
</context>
<context>
    <name>GrowthView</name>
    <message>
        <source>allocated in: {phase}
grows by {per_step} per step (least squares over the steps)
held more after {increases} of the {steps} steps after the first measured
{first} at the first step, {last} at the last</source>
        <translation>alocat în: {phase}
crește cu {per_step} pe pas (cele mai mici pătrate pe pași)
a ținut mai mult după {increases} din cei {steps} pași de după primul măsurat
{first} la primul pas, {last} la ultimul</translation>
    </message>
    <message>
        <source>Growth from step to step could not be found: {message}</source>
        <translation>Creșterea de la un pas la altul nu a putut fi găsită: {message}</translation>
    </message>
    <message>
        <source>{site}: {bytes} more per step</source>
        <translation>{site}: cu {bytes} mai mult pe pas</translation>
    </message>
    <message>
        <source>Growth from step to step: not computed yet.</source>
        <translation>Creșterea de la un pas la altul: încă necalculată.</translation>
    </message>
    <message>
        <source> A site counts as growing at {size} or more a step, holding more after {share} of the steps.</source>
        <translation> Un loc de apel este socotit în creștere la {size} sau mai mult pe pas, ținând mai mult după {share} din pași.</translation>
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
