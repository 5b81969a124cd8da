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
    <name>CategoryRules</name>
    <message>
        <source>no alloc event in the trace: live before recording began</source>
        <translation>niciun eveniment de alocare în jurnalul de evenimente: activ dinainte de începutul înregistrării</translation>
    </message>
    <message>
        <source>allocated by a library&apos;s workspace set-up (cuBLAS getNewWorkspace/getCurrentCUDABlasHandle, cuBLASLt, cuDNN, NCCL): kept for the whole process</source>
        <translation>alocat la pregătirea spațiului de lucru al unei biblioteci (cuBLAS getNewWorkspace/getCurrentCUDABlasHandle, cuBLASLt, cuDNN, NCCL): păstrat cât trăiește procesul</translation>
    </message>
    <message>
        <source>exactly cuBLAS&apos;s default workspace (32 MiB on Hopper, 8.125 MiB before), the first block of that size in its phase, made at its first matrix product and never freed: one per thread and stream (the autograd thread&apos;s has no Python frames)</source>
        <translation>exact spațiul de lucru implicit al cuBLAS (32&#xa0;MiB pe Hopper, 8,125&#xa0;MiB înainte), primul bloc de această mărime din faza sa, făcut la primul său produs de matrice și niciodată eliberat: unul pe fir și pe stream (cel al firului autograd nu are cadre Python)</translation>
    </message>
    <message>
        <source>allocated while the model was built, loaded or moved (Module.to/_apply, reset_parameters, load_state_dict, from_pretrained, a module&apos;s __init__)</source>
        <translation>alocat cât timp modelul era construit, încărcat sau mutat (Module.to/_apply, reset_parameters, load_state_dict, from_pretrained, __init__ al unui modul)</translation>
    </message>
    <message>
        <source>allocated by autograd&apos;s AccumulateGrad: a leaf&apos;s .grad</source>
        <translation>alocat de AccumulateGrad al lui autograd: .grad al unei frunze</translation>
    </message>
    <message>
        <source>autocast&apos;s cast (at::autocast -&gt; _to_copy, no Python .to()) to half the size of a weight block: the low-precision copy of an fp32 weight, cached until the autocast region ends</source>
        <translation>conversia autocast (autocast din ATen -&gt; _to_copy, fără .to() din Python) la jumătate din mărimea unui bloc de ponderi: copia de precizie redusă a unei ponderi fp32, păstrată până se încheie regiunea autocast</translation>
    </message>
    <message>
        <source>made by a forward run inside backward (checkpointing&apos;s recomputation)</source>
        <translation>creat de o trecere înainte rulată în timpul trecerii înapoi (recalcularea din checkpointing)</translation>
    </message>
    <message>
        <source>allocated and freed within one stretch of the same phase (scratch space)</source>
        <translation>alocat și eliberat în aceeași porțiune a aceleiași faze (spațiu temporar)</translation>
    </message>
    <message>
        <source>a batch sent to the device: DataParallel&apos;s scatter, or a .to(device)/.cuda() (send_to_device, BatchEncoding.to, ...) outside any forward, backward or optimizer step</source>
        <translation>un lot trimis pe dispozitiv: scatter al lui DataParallel, sau un .to(device)/.cuda() (send_to_device, ...) în afara oricărei treceri înainte, treceri înapoi sau a unui pas al optimizatorului</translation>
    </message>
    <message>
        <source>replica (DataParallel broadcast: nn/parallel/replicate.py)</source>
        <translation>replică (difuzarea DataParallel: nn/parallel/replicate.py)</translation>
    </message>
    <message>
        <source>made by the optimizer and kept past its step (exp_avg, exp_avg_sq, momentum buffers)</source>
        <translation>creat de optimizator și păstrat după pasul său (exp_avg, exp_avg_sq, buffere de momentum)</translation>
    </message>
    <message>
        <source>made in backward and kept past it</source>
        <translation>creat în trecerea înapoi și păstrat după ea</translation>
    </message>
    <message>
        <source>made in a forward and kept past it (saved for backward, or its output)</source>
        <translation>creat într-o trecere înainte și păstrat după ea (salvat pentru trecerea înapoi, sau ieșirea ei)</translation>
    </message>
    <message>
        <source>made by code outside any module&apos;s forward and freed in backward (saved for it)</source>
        <translation>creat de cod din afara trecerii înainte a oricărui modul și eliberat în trecerea înapoi (salvat pentru ea)</translation>
    </message>
    <message>
        <source>the file&apos;s own category (torch.cuda._memory_viz._profile_to_snapshot, from PyTorch&apos;s memory profiler)</source>
        <translation>categoria din fișier (torch.cuda._memory_viz._profile_to_snapshot, din profilerul de memorie al PyTorch)</translation>
    </message>
    <message>
        <source>no rule matched (no frames, or frames that name no phase)</source>
        <translation>nicio regulă nu se potrivește (niciun cadru, sau cadre care nu numesc nicio fază)</translation>
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
    <name>Diagnosis</name>
    <message>
        <source>an allocation</source>
        <translation>o alocare</translation>
    </message>
    <message>
        <source>a free, requested</source>
        <translation>o eliberare, cerută</translation>
    </message>
    <message>
        <source>a free, completed</source>
        <translation>o eliberare, încheiată</translation>
    </message>
    <message>
        <source>a cudaMalloc</source>
        <translation>un cudaMalloc</translation>
    </message>
    <message>
        <source>a cudaFree</source>
        <translation>un cudaFree</translation>
    </message>
    <message>
        <source>pages mapped</source>
        <translation>pagini mapate</translation>
    </message>
    <message>
        <source>pages unmapped</source>
        <translation>pagini demapate</translation>
    </message>
    <message>
        <source>an OOM</source>
        <translation>un OOM</translation>
    </message>
    <message>
        <source>an event</source>
        <translation>un eveniment</translation>
    </message>
    <message>
        <source>{allocated} allocated in {reserved} reserved</source>
        <translation>{allocated} alocați din {reserved} rezervați</translation>
    </message>
    <message>
        <source>Device {device} ran out of memory at event {event} of {n} (its first OOM).</source>
        <translation>Dispozitivul {device} a rămas fără memorie la evenimentul {event} din {n} (primul său OOM).</translation>
    </message>
    <message>
        <source>Device {device} has no OOM in its trace; this is its peak of allocated memory, at event {event} of {n}: {held}.</source>
        <translation>Dispozitivul {device} nu are niciun OOM în jurnalul de evenimente; acesta este vârful memoriei sale alocate, la evenimentul {event} din {n}: {held}.</translation>
    </message>
    <message>
        <source>Device {device} has no trace in this file; this is its state when the snapshot was taken: {held}.</source>
        <translation>Dispozitivul {device} nu are jurnal de evenimente în acest fișier; aceasta este starea sa la momentul instantaneului: {held}.</translation>
    </message>
    <message>
        <source>Device {device} before the first event: {held}.</source>
        <translation>Dispozitivul {device} înainte de primul eveniment: {held}.</translation>
    </message>
    <message>
        <source>Device {device} right after event {event} of {n} ({action}): {held}.</source>
        <translation>Dispozitivul {device} imediat după evenimentul {event} din {n} ({action}): {held}.</translation>
    </message>
    <message>
        <source>Device {device} right after event {event} of {n}: {held}.</source>
        <translation>Dispozitivul {device} imediat după evenimentul {event} din {n}: {held}.</translation>
    </message>
    <message>
        <source>small pool</source>
        <translation>pool-ul mic</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>pool-ul mare</translation>
    </message>
    <message>
        <source>small pool of private pool {pool}</source>
        <translation>pool-ul mic al pool-ului privat {pool}</translation>
    </message>
    <message>
        <source>large pool of private pool {pool}</source>
        <translation>pool-ul mare al pool-ului privat {pool}</translation>
    </message>
    <message>
        <source>The request needed {needed} more from the device, which had {device_free} free (cudaMemGetInfo at the OOM): enough. A memory limit of this process refused it (torch.cuda.set_per_process_memory_fraction, or per_process_memory_fraction in PYTORCH_CUDA_ALLOC_CONF), unless another process took that memory meanwhile. The trace does not record the limit: the process held {reserved}, so it was under {under}.</source>
        <translation>Cererea avea nevoie de încă {needed} de la dispozitiv, care avea {device_free} liberi (cudaMemGetInfo la OOM): suficient. O limită de memorie a acestui proces a refuzat-o (torch.cuda.set_per_process_memory_fraction sau per_process_memory_fraction în PYTORCH_CUDA_ALLOC_CONF), dacă nu cumva alt proces a luat între timp acea memorie. Urma nu înregistrează limita: procesul deținea {reserved}, deci limita era sub {under}.</translation>
    </message>
    <message>
        <source>The probe recorded that limit: {given}, the process&apos;s memory fraction of the device; the figures here take it.</source>
        <translation>Sonda a înregistrat această limită: {given}, fracțiunea de memorie a procesului din dispozitiv; cifrele de aici o iau.</translation>
    </message>
    <message>
        <source>The limit given is {given}: the figures and replays here take it.</source>
        <translation>Limita dată este {given}: cifrele și reluările de aici o iau.</translation>
    </message>
    <message>
        <source>Earlier in the recording it held {held}, more than that: the limit was set or lowered since, and the figures and replays here take it just under {under}.</source>
        <translation>Mai devreme în înregistrare deținea {held}, mai mult de atât: limita a fost stabilită sau coborâtă între timp, iar cifrele și reluările de aici o iau chiar sub {under}.</translation>
    </message>
    <message>
        <source>Earlier in the recording it held {held}: if the limit was the same all along, at least that much was allowed, and the figures and replays here take that lowest limit, so a remedy that fits under it fits under the real one.</source>
        <translation>Mai devreme în înregistrare deținea {held}: dacă limita a fost aceeași tot timpul, cel puțin atât era permis, iar cifrele și reluările de aici iau această limită cea mai joasă, astfel încât un remediu care încape sub ea încape și sub cea reală.</translation>
    </message>
    <message>
        <source>{refused} {then}</source>
        <translation>{refused} {then}</translation>
    </message>
    <message>
        <source>The program</source>
        <translation>Programul</translation>
    </message>
    <message>
        <source>{who} asked for {request}, rounded as the allocator rounds it, from the {pool} on stream {stream}.</source>
        <translation>{who} a cerut {request}, rotunjit cum rotunjește alocatorul, din {pool} pe stream-ul {stream}.</translation>
    </message>
    <message>
        <source>A new segment for it needed {segment} from cudaMalloc, but the device had only {device_free} free (cudaMemGetInfo at the OOM).</source>
        <translation>Un segment nou pentru ea avea nevoie de {segment} de la cudaMalloc, dar dispozitivul avea doar {device_free} liberi (cudaMemGetInfo la OOM).</translation>
    </message>
    <message>
        <source>The cache had {pool_free} free in that pool, but its largest hole was {hole}: no free block could serve the request.</source>
        <translation>Cache-ul avea {pool_free} liberi în acel pool, dar cel mai mare gol al său era de {hole}: niciun bloc liber nu putea servi cererea.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already given back every cached segment without a live block (what empty_cache() does), so an empty_cache() before this request would not have helped.</source>
        <translation>Înainte de a ridica OOM-ul, alocatorul returnase deja fiecare segment din cache fără niciun bloc activ (ce face empty_cache()), deci un empty_cache() înaintea acestei cereri nu ar fi ajutat.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already given back every cached segment without a live block (what empty_cache() does), except those of private pools still in use: pool {pool} keeps its own until the program releases it (destroys its graphs, deletes its MemPool), so an empty_cache() before this request would not have helped.</source>
        <translation>Înainte de a ridica OOM-ul, alocatorul returnase deja fiecare segment din cache fără niciun bloc activ (ce face empty_cache()), în afară de cele ale pool-urilor private încă folosite: pool-ul {pool} le păstrează pe ale sale până când programul îl eliberează (îi distruge grafurile, îi șterge MemPool-ul), deci un empty_cache() înaintea acestei cereri nu ar fi ajutat.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already unmapped every page of its segments that no live block touches (what empty_cache() does), so an empty_cache() before this request would not have helped.</source>
        <translation>Înainte de a ridica OOM-ul, alocatorul demapase deja fiecare pagină a segmentelor sale pe care nu o atinge niciun bloc activ (ce face empty_cache()), deci un empty_cache() înaintea acestei cereri nu ar fi ajutat.</translation>
    </message>
    <message>
        <source>{size} at {address} from {site}</source>
        <translation>{size} la {address} din {site}</translation>
    </message>
    <message>
        <source> (and {n} more)</source>
        <translation> (și încă {n})</translation>
    </message>
    <message>
        <source>{n} segment(s) of {size} with {free} free</source>
        <translation>{n} {n:segment|segmente|de segmente} de {size} cu {free} liberi</translation>
    </message>
    <message>
        <source>{count} live block(s) split the holes of {segments}: without them the holes would have been one, large enough for the request. They are: {named}{more}.</source>
        <translation>{count} {count:bloc activ împarte|blocuri active împart|de blocuri active împart} golurile din {segments}: fără ele golurile ar fi fost unul singur, destul de mare pentru cerere. Acestea sunt: {named}{more}.</translation>
    </message>
    <message>
        <source>{count} live block(s) keep {segments} from being released: without them the allocator would have given those segments back and cudaMalloc&apos;ed the request ({device_free} + {released} &gt;= {needed}). They are: {named}{more}.</source>
        <translation>{count} {count:bloc activ împiedică|blocuri active împiedică|de blocuri active împiedică} eliberarea a {segments}: fără ele alocatorul ar fi returnat acele segmente și ar fi obținut cererea prin cudaMalloc ({device_free} + {released} &gt;= {needed}). Acestea sunt: {named}{more}.</translation>
    </message>
    <message>
        <source>Even all the free memory of the cache and what was left under the limit together ({cache_free} + {left}) is less than the request: no rearrangement of free memory could have served it, only a smaller request, a smaller live set or a higher limit.</source>
        <translation>Chiar toată memoria liberă a cache-ului și ce mai rămânea sub limită împreună ({cache_free} + {left}) este mai mică decât cererea: nicio rearanjare a memoriei libere nu ar fi putut-o servi, doar o cerere mai mică, un set activ mai mic sau o limită mai înaltă.</translation>
    </message>
    <message>
        <source>Even all the free memory of the cache and the device together ({cache_free} + {device_free}) is less than the request: no rearrangement of free memory could have served it, only a smaller request or a smaller live set.</source>
        <translation>Chiar toată memoria liberă a cache-ului și a dispozitivului împreună ({cache_free} + {device_free}) este mai mică decât cererea: nicio rearanjare a memoriei libere nu ar fi putut-o servi, doar o cerere mai mică sau un set activ mai mic.</translation>
    </message>
    <message>
        <source>the larger of what the largest hole serves and what a new segment in the device&apos;s free memory serves ({new})</source>
        <translation>cea mai mare dintre ce servește cel mai mare gol și ce servește un segment nou în memoria liberă a dispozitivului ({new})</translation>
    </message>
    <message>
        <source>the larger of what the largest hole serves and what new memory under the limit serves ({new})</source>
        <translation>cea mai mare dintre ce servește cel mai mare gol și ce servește memoria nouă sub limită ({new})</translation>
    </message>
    <message>
        <source>The request would have fitted at {fits} or less ({smaller} smaller): {how}.</source>
        <translation>Cererea ar fi încăput la {fits} sau mai puțin (cu {smaller} mai mică): {how}.</translation>
    </message>
    <message>
        <source>By these figures the request should have fitted: another stream&apos;s holes, a private pool or memory freed while the OOM was handled may explain the difference.</source>
        <translation>După aceste cifre cererea ar fi trebuit să încapă: golurile altui stream, un pool privat sau memorie eliberată în timpul tratării OOM-ului pot explica diferența.</translation>
    </message>
    <message>
        <source>Or the live set would have to shrink by {excess}, freed as whole {page} pages (a page goes back to the device only when no live block lies on it).</source>
        <translation>Sau setul activ ar trebui să scadă cu {excess}, eliberați ca pagini întregi de {page} (o pagină se întoarce la dispozitiv doar când niciun bloc activ nu stă pe ea).</translation>
    </message>
    <message>
        <source>Or the live set would have to shrink by {excess}, freed as whole segments (a segment goes back to the device only when none of its blocks is live).</source>
        <translation>Sau setul activ ar trebui să scadă cu {excess}, eliberați ca segmente întregi (un segment se întoarce la dispozitiv doar când niciunul dintre blocurile sale nu este activ).</translation>
    </message>
    <message>
        <source>Its stack in your code, innermost first: {frames}{more}.</source>
        <translation>Stiva sa în codul dumneavoastră, cel mai interior cadru primul: {frames}{more}.</translation>
    </message>
    <message>
        <source>{n} {n:page|pages} of {size}</source>
        <translation>{n} {n:pagină|pagini|de pagini} de {size}</translation>
    </message>
    <message>
        <source>a new expandable segment</source>
        <translation>un segment extensibil nou</translation>
    </message>
    <message>
        <source>the free tail of {tail} at the end of the segment at {segment}</source>
        <translation>coada liberă de {tail} de la sfârșitul segmentului de la {segment}</translation>
    </message>
    <message>
        <source>Expandable segments are on, so the allocator grows a segment by mapping pages rather than by cudaMalloc: the request needed {pages} ({bytes}) mapped onto {where}, but the device had only {device_free} free (cudaMemGetInfo at the OOM), room for {room}.</source>
        <translation>Segmentele extensibile sunt active, deci alocatorul crește un segment mapând pagini, nu prin cudaMalloc: cererea avea nevoie de {pages} ({bytes}) mapate pe {where}, dar dispozitivul avea doar {device_free} liberi (cudaMemGetInfo la OOM), loc pentru {room}.</translation>
    </message>
    <message>
        <source>what the largest hole serves; the device could not map enough pages for more</source>
        <translation>ce servește cel mai mare gol; dispozitivul nu putea mapa destule pagini pentru mai mult</translation>
    </message>
    <message>
        <source>{pages} the device could still map, in a new expandable segment</source>
        <translation>{pages} pe care dispozitivul le mai putea mapa, într-un segment extensibil nou</translation>
    </message>
    <message>
        <source>, plus {beyond} free in the segment after them</source>
        <translation>, plus {beyond} liberi în segment după ele</translation>
    </message>
    <message>
        <source>the free tail of {tail} at the end of the segment at {segment}, plus {pages} the device could still map after it{more}; the allocator grows the first segment, by address, with room for the request, and maps no page elsewhere when that fails</source>
        <translation>coada liberă de {tail} de la sfârșitul segmentului de la {segment}, plus {pages} pe care dispozitivul le mai putea mapa după ea{more}; alocatorul crește primul segment, după adresă, care are loc pentru cerere și nu mapează nicio pagină în altă parte când asta eșuează</translation>
    </message>
    <message>
        <source>Nothing is allocated at this moment.</source>
        <translation>Nimic nu este alocat în acest moment.</translation>
    </message>
    <message>
        <source>By category (the file&apos;s own categories, from PyTorch&apos;s memory profiler): {categories}.</source>
        <translation>Pe categorii (categoriile din fișier, de la profilerul de memorie al PyTorch): {categories}.</translation>
    </message>
    <message>
        <source>By category: {categories}.</source>
        <translation>Pe categorii: {categories}.</translation>
    </message>
    <message>
        <source>What holds the memory: {sites}.</source>
        <translation>Ce ține memoria: {sites}.</translation>
    </message>
    <message>
        <source>Every reserved byte is allocated.</source>
        <translation>Fiecare octet rezervat este alocat.</translation>
    </message>
    <message>
        <source>{bytes} is free inside segments that also hold live blocks (split blocks: the allocator cannot give them back)</source>
        <translation>{bytes} sunt liberi în segmente care țin și blocuri active (blocuri împărțite: alocatorul nu le poate returna)</translation>
    </message>
    <message>
        <source>{bytes} is {n} wholly free segment(s) the cache keeps for later requests (empty_cache() would give them back)</source>
        <translation>{bytes} sunt {n} {n:segment liber în întregime|segmente libere în întregime|de segmente libere în întregime} pe care cache-ul le păstrează pentru cereri ulterioare (empty_cache() le-ar returna)</translation>
    </message>
    <message>
        <source>{bytes} is {n} wholly free segment(s) of private pools (CUDA graphs, MemPool), kept for the pools&apos; own requests (empty_cache() gives them back only once the pool is released)</source>
        <translation>{bytes} sunt {n} {n:segment liber în întregime|segmente libere în întregime|de segmente libere în întregime} ale pool-urilor private (grafuri CUDA, MemPool), păstrate pentru cererile pool-urilor (empty_cache() le returnează doar după ce pool-ul este eliberat)</translation>
    </message>
    <message>
        <source>{bytes} is free pages of expandable segments</source>
        <translation>{bytes} sunt pagini libere ale segmentelor extensibile</translation>
    </message>
    <message>
        <source>{bytes} is freed but waits for other streams (pending free)</source>
        <translation>{bytes} sunt eliberați, dar așteaptă alte stream-uri (eliberare în așteptare)</translation>
    </message>
    <message>
        <source>Reserved but not allocated: {gap}. {parts}.</source>
        <translation>Rezervat, dar nealocat: {gap}. {parts}.</translation>
    </message>
    <message>
        <source>{n} of the {total} requests after this moment were larger than its largest cached hole ({hole}), so no hole cached here could serve them.</source>
        <translation>{n} din cele {total} cereri de după acest moment au fost mai mari decât cel mai mare gol din cache ({hole}), deci niciun gol din cache de aici nu le putea servi.</translation>
    </message>
    <message>
        <source>This is a snapshot made by torch.cuda._memory_viz._profile_to_snapshot from a torch.profiler run (profile_memory=True): its one segment per device spans the addresses the profiler saw (lowest to highest end), not memory the caching allocator reserved: the gaps between tensors are no free cache, so this file has no free memory, largest hole or fragmentation to report.</source>
        <translation>Acesta este un instantaneu făcut de torch.cuda._memory_viz._profile_to_snapshot dintr-o rulare torch.profiler (profile_memory=True): singurul său segment pe dispozitiv acoperă adresele văzute de profiler (de la cea mai mică la cel mai înalt capăt), nu memorie rezervată de alocatorul cu cache: spațiile dintre tensori nu sunt cache liber, deci acest fișier nu are memorie liberă, cel mai mare gol sau fragmentare de raportat.</translation>
    </message>
</context>
<context>
    <name>Explain</name>
    <message>
        <source>Each remedy is a replay of the recorded allocations and frees through the allocator simulator: a setting replays them as recorded, assuming the program makes the same requests in the same order; a change to the program replays them changed as that change would change them (what it assumes is in its row).</source>
        <translation>Fiecare remediu este o rejucare a alocărilor și eliberărilor înregistrate prin simulatorul alocatorului: o setare le rejoacă așa cum au fost înregistrate, presupunând că programul face aceleași cereri în aceeași ordine; o schimbare a programului le rejoacă schimbate așa cum le-ar schimba acea schimbare (ce presupune este pe rândul ei).</translation>
    </message>
    <message>
        <source>Each change to the program below is replayed as a changed trace: the recorded requests with those the change acts on dropped, shrunk or freed for a while, every other request as recorded, up to the request explained (the whole trace at a peak). It is a model of the change, not the changed program; what each one assumes is said with it.</source>
        <translation>Fiecare schimbare a programului de mai jos este rejucată ca jurnal de evenimente schimbat: cererile înregistrate, cu cele asupra cărora acționează schimbarea eliminate, micșorate sau eliberate o vreme, fiecare altă cerere așa cum a fost înregistrată, până la cererea explicată (tot jurnalul la un vârf). Este un model al schimbării, nu programul schimbat; ce presupune fiecare este spus odată cu ea.</translation>
    </message>
    <message>
        <source>{total} in all</source>
        <translation>{total} în total</translation>
    </message>
    <message>
        <source>The replays here assumed a private pool the trace does not name (a MemPool or CUDA graph freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room: each remedy&apos;s replay keeps that pool&apos;s memory apart, as the recorded run did.</source>
        <translation>Rejucările de aici au presupus un pool privat pe care jurnalul de evenimente nu îl numește (un MemPool sau un graf CUDA eliberat înainte de instantaneu), dedus din {n} {n:segment|segmente|de segmente} ({sizes}) pe care alocatorul înregistrat le-a creat deși pool-ul implicit avea loc: rejucarea fiecărui remediu ține separat memoria acelui pool, așa cum a făcut rularea înregistrată.</translation>
    </message>
    <message>
        <source>The replays here assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room: each remedy&apos;s replay keeps those pools&apos; memory apart, as the recorded run did.</source>
        <translation>Rejucările de aici au presupus {pools} pool-uri private pe care jurnalul de evenimente nu le numește (MemPool-uri sau grafuri CUDA eliberate înainte de instantaneu), deduse din {n} {n:segment|segmente|de segmente} ({sizes}) pe care alocatorul înregistrat le-a creat deși pool-ul implicit avea loc: rejucarea fiecărui remediu ține separat memoria acelor pool-uri, așa cum a făcut rularea înregistrată.</translation>
    </message>
    <message>
        <source>peak reserved {peak}, recorded {recorded}</source>
        <translation>vârf rezervat {peak}, înregistrat {recorded}</translation>
    </message>
    <message>
        <source>With {settings} {reason}; the replay ({after}) starts from the segments the recorded settings made.</source>
        <translation>Cu {settings}: {reason}; rejucarea ({after}) pornește de la segmentele făcute de setările înregistrate.</translation>
    </message>
    <message>
        <source>With {settings} the OOM goes away ({after}).</source>
        <translation>Cu {settings} OOM-ul dispare ({after}).</translation>
    </message>
    <message>
        <source>With {settings} the replay still runs out of memory ({n} OOM; {after}).</source>
        <translation>Cu {settings} rejucarea tot rămâne fără memorie ({n} OOM; {after}).</translation>
    </message>
    <message>
        <source>With {settings}: {after}.</source>
        <translation>Cu {settings}: {after}.</translation>
    </message>
    <message>
        <source>With {settings} the replay runs out of memory ({n} OOM; {after}).</source>
        <translation>Cu {settings} rejucarea rămâne fără memorie ({n} OOM; {after}).</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; the replay cannot judge it ({reason})</source>
        <translation>eliberează {frees} în acest moment; rejucarea nu o poate judeca ({reason})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment, and the request then fits: the changed trace replays to it with no OOM (peak reserved {peak})</source>
        <translation>eliberează {frees} în acest moment, iar cererea încape atunci: jurnalul schimbat se rejoacă până la ea fără OOM (vârf rezervat {peak})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment, but the request still does not fit: the changed trace&apos;s replay runs out of memory (peak reserved {peak})</source>
        <translation>eliberează {frees} în acest moment, dar cererea tot nu încape: rejucarea jurnalului schimbat rămâne fără memorie (vârf rezervat {peak})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; replayed, peak reserved {peak}: {room} of headroom against the recorded settings&apos; replay</source>
        <translation>eliberează {frees} în acest moment; rejucat, vârf rezervat {peak}: {room} de rezervă față de rejucarea setărilor înregistrate</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; replayed, peak reserved {peak}: no headroom against the recorded settings&apos; replay</source>
        <translation>eliberează {frees} în acest moment; rejucat, vârf rezervat {peak}: nicio rezervă față de rejucarea setărilor înregistrate</translation>
    </message>
    <message>
        <source>{verdict} ({n} OOM in the replay)</source>
        <translation>{verdict} ({n} OOM în rejucare)</translation>
    </message>
    <message>
        <source>{change}: {verdict}. It assumes {assumes}.</source>
        <translation>{change}: {verdict}. Presupune că {assumes}.</translation>
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
        <translation>Normal: sub 20 % din rezervat sau sub 1&#xa0;GiB: memorie pe care cache-ul o păstrează pentru cererile următoare.</translation>
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
Contează doar când este mult liber (20 % din rezervat și 1&#xa0;GiB); cu puțin liber este inofensivă. Sub 50 % este normal.</translation>
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
        <source>OOM at event {event} (and {more} more): a request of {requested} failed while the device had {device_free} free: a memory limit of this process (a memory fraction) refused it, not the device.</source>
        <translation>OOM la evenimentul {event} (și încă {more}): o cerere de {requested} a eșuat în timp ce dispozitivul avea {device_free} liberi: o limită de memorie a acestui proces (o fracțiune de memorie) a refuzat-o, nu dispozitivul.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed while the device had {device_free} free: a memory limit of this process (a memory fraction) refused it, not the device.</source>
        <translation>OOM la evenimentul {event}: o cerere de {requested} a eșuat în timp ce dispozitivul avea {device_free} liberi: o limită de memorie a acestui proces (o fracțiune de memorie) a refuzat-o, nu dispozitivul.</translation>
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
        <translation>sfârșitul fiecăreia dintre cele {n} faze ({name}), citite din cadrele stivelor</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>trecerea înainte</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>trecerea înapoi</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>pasul optimizatorului</translation>
    </message>
    <message>
        <source>load</source>
        <translation>încărcare</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>checkpoint</translation>
    </message>
    <message>
        <source>init</source>
        <translation>inițializare</translation>
    </message>
    <message>
        <source>just before each of the {n} allocations from {where}, one every ~{gap} events</source>
        <translation>chiar înainte de fiecare dintre cele {n} {n:alocare|alocări|de alocări} din {where}, una la ~{gap} evenimente</translation>
    </message>
    <message>
        <source>{site} (allocated in {phase}) grows by {per_step} per step over {steps} steps (from {first} to {last}): memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph.</source>
        <translation>{site} (alocat în {phase}) crește cu {per_step} pe pas de-a lungul a {steps} pași (de la {first} la {last}): memorie păstrată din fiecare pas, de ex. un tensor adăugat la o listă sau un loss păstrat cu graful său.</translation>
    </message>
    <message>
        <source>{site} grows by {per_step} per step over {steps} steps (from {first} to {last}): memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph.</source>
        <translation>{site} crește cu {per_step} pe pas de-a lungul a {steps} pași (de la {first} la {last}): memorie păstrată din fiecare pas, de ex. un tensor adăugat la o listă sau un loss păstrat cu graful său.</translation>
    </message>
    <message>
        <source>{n} more sites grow too.</source>
        <translation>Încă {n} locuri de apel cresc și ele.</translation>
    </message>
    <message>
        <source>Steps measured at {how}; a site counts as growing at {size} or more a step, holding more after {share} of the steps.</source>
        <translation>Pași măsurați la {how}; un loc de apel contează ca fiind în creștere de la {size} sau mai mult pe pas, ținând mai mult după {share} din pași.</translation>
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
    <name>Remedies</name>
    <message>
        <source>{change}, with {settings}</source>
        <translation>{change}, cu {settings}</translation>
    </message>
    <message>
        <source>make the failing request {size} (compute it in chunks, or a smaller shape)</source>
        <translation>faceți cererea care eșuează de {size} (calculați-o pe bucăți, sau cu o formă mai mică)</translation>
    </message>
    <message>
        <source>only the failing request changes; every other request is as recorded</source>
        <translation>doar cererea care eșuează se schimbă; fiecare altă cerere este așa cum a fost înregistrată</translation>
    </message>
    <message>
        <source>the program makes the same requests in the same order under these settings</source>
        <translation>programul face aceleași cereri în aceeași ordine sub aceste setări</translation>
    </message>
    <message>
        <source>There is no trace to replay, so no remedy could be verified.</source>
        <translation>Nu există jurnal de evenimente de rejucat, deci niciun remediu nu a putut fi verificat.</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the simulator runs out of memory too (peak reserved {peak}).</source>
        <translation>Rejucat sub setările înregistrate, simulatorul rămâne și el fără memorie (vârf rezervat {peak}).</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the simulator does not run out of memory: it does not reproduce this run, so the remedies below are less certain.</source>
        <translation>Rejucat sub setările înregistrate, simulatorul nu rămâne fără memorie: nu reproduce această rulare, deci remediile de mai jos sunt mai puțin sigure.</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the peak reserved is {peak}.</source>
        <translation>Rejucat sub setările înregistrate, vârful rezervat este {peak}.</translation>
    </message>
    <message>
        <source>expandable_segments was already on in the recorded run.</source>
        <translation>expandable_segments era deja activ în rularea înregistrată.</translation>
    </message>
    <message>
        <source>Of the max_split_size_mb values only {value} was tried: each replay of a trace this long takes seconds (try others with `gpumem-gui replay --set`).</source>
        <translation>Dintre valorile max_split_size_mb doar {value} a fost încercată: fiecare rejucare a unui jurnal de evenimente atât de lung durează secunde (încercați altele cu `gpumem-gui replay --set`).</translation>
    </message>
    <message>
        <source>max_split_size_mb was not tried: the request ({request}) is below the smallest useful value ({smallest} MB), so it would be split as before.</source>
        <translation>max_split_size_mb nu a fost încercat: cererea ({request}) este sub cea mai mică valoare utilă ({smallest} MB), deci ar fi împărțită ca înainte.</translation>
    </message>
    <message>
        <source>garbage_collection_threshold was not tried: it acts against a memory fraction of the device, and a trace without an OOM does not tell the device&apos;s capacity.</source>
        <translation>garbage_collection_threshold nu a fost încercat: acționează față de o fracțiune din memoria dispozitivului, iar un jurnal de evenimente fără OOM nu spune capacitatea dispozitivului.</translation>
    </message>
    <message>
        <source>empty_cache() before the failing request was not replayed: the replay only repeats the program&apos;s own empty_cache() calls (and the allocator releases the same segments before any OOM).</source>
        <translation>empty_cache() înaintea cererii care eșuează nu a fost rejucat: rejucarea repetă doar apelurile empty_cache() ale programului (iar alocatorul eliberează aceleași segmente înaintea oricărui OOM).</translation>
    </message>
    <message>
        <source>{bytes} in pool {pool}</source>
        <translation>{bytes} în pool-ul {pool}</translation>
    </message>
    <message>
        <source>Private pools (CUDA graphs, torch.cuda.MemPool) hold {held} of the {reserved} reserved at this moment ({each}). The replays keep those blocks for the pools&apos; own requests, and empty_cache() gives a pool&apos;s memory back only once the graphs using it are destroyed (or the MemPool deleted).</source>
        <translation>Pool-urile private (grafuri CUDA, torch.cuda.MemPool) țin {held} din cei {reserved} rezervați în acest moment ({each}). Rejucările păstrează acele blocuri pentru cererile pool-urilor, iar empty_cache() returnează memoria unui pool doar după ce grafurile care îl folosesc sunt distruse (sau MemPool-ul șters).</translation>
    </message>
    <message>
        <source>The replay with {what} failed ({error}); it is left out.</source>
        <translation>Rejucarea cu {what} a eșuat ({error}); este omisă.</translation>
    </message>
    <message>
        <source>Checkpointing was not tried: no activation is held at this moment.</source>
        <translation>Checkpointing-ul activărilor nu a fost încercat: nicio activare nu este ținută în acest moment.</translation>
    </message>
    <message>
        <source>checkpoint {sites} (torch.utils.checkpoint: its activations recomputed in backward, not kept)</source>
        <translation>checkpointing pentru {sites} (torch.utils.checkpoint: activările recalculate în trecerea înapoi, nu păstrate)</translation>
    </message>
    <message>
        <source>each activation of these sites is freed once the next allocation is made (the next operation has read it) and made again just before backward frees it (its recomputation); the input each checkpointed region keeps is not added back</source>
        <translation>fiecare activare a acestor locuri de apel este eliberată odată ce se face alocarea următoare (operația următoare a citit-o) și refăcută chiar înainte ca trecerea înapoi să o elibereze (recalcularea ei); intrarea pe care o păstrează fiecare regiune cu checkpoint nu este adăugată înapoi</translation>
    </message>
    <message>
        <source>A smaller batch was not tried: no activation, input or forward temporary is held at this moment.</source>
        <translation>Un lot mai mic nu a fost încercat: nicio activare, intrare sau valoare temporară a trecerii înainte nu este ținută în acest moment.</translation>
    </message>
    <message>
        <source>every activation, input and forward or backward temporary scales with the batch, and so does the failing request; parameters, gradients and optimizer state do not</source>
        <translation>fiecare activare, intrare și valoare temporară a trecerii înainte sau înapoi se scalează cu lotul, la fel și cererea care eșuează; parametrii, gradienții și starea optimizatorului nu</translation>
    </message>
    <message>
        <source>every activation, input and forward or backward temporary scales with the batch; parameters, gradients and optimizer state do not</source>
        <translation>fiecare activare, intrare și valoare temporară a trecerii înainte sau înapoi se scalează cu lotul; parametrii, gradienții și starea optimizatorului nu</translation>
    </message>
    <message>
        <source>a batch (or sequence) {fraction} as large</source>
        <translation>un lot (sau o secvență) de {fraction} din mărime</translation>
    </message>
    <message>
        <source>An 8-bit optimizer was not tried: no optimizer state is held at this moment.</source>
        <translation>Un optimizator pe 8 biți nu a fost încercat: nicio stare a optimizatorului nu este ținută în acest moment.</translation>
    </message>
    <message>
        <source>an 8-bit optimizer (bitsandbytes&apos; Adam8bit): its state a quarter of fp32 Adam&apos;s</source>
        <translation>un optimizator pe 8 biți (Adam8bit din bitsandbytes): starea lui, un sfert din cea a lui Adam fp32</translation>
    </message>
    <message>
        <source>every optimizer state block (exp_avg, exp_avg_sq, momentum) takes one byte per value instead of four</source>
        <translation>fiecare bloc de stare a optimizatorului (exp_avg, exp_avg_sq, momentum) ocupă un octet pe valoare în loc de patru</translation>
    </message>
    <message>
        <source>Sharding was not tried: no parameter, gradient or optimizer state recorded being made is held.</source>
        <translation>Sharding-ul nu a fost încercat: nu este ținut niciun parametru, gradient sau stare a optimizatorului a cărui creare a fost înregistrată.</translation>
    </message>
    <message>
        <source>asked for</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>the file&apos;s devices</source>
        <translation>dispozitivele fișierului</translation>
    </message>
    <message>
        <source>the smallest sharding</source>
        <translation>cel mai mic sharding</translation>
    </message>
    <message>
        <source>shard parameters, gradients and optimizer state over {n} GPUs (FSDP or DeepSpeed ZeRO-3)</source>
        <translation>împărțiți parametrii, gradienții și starea optimizatorului pe {n} GPU-uri (FSDP sau DeepSpeed ZeRO-3)</translation>
    </message>
    <message>
        <source>each GPU keeps {share} of them ({n}: {told}); the parameters gathered for the layer that runs and the communication buffers are not added; blocks from before recording are left whole</source>
        <translation>fiecare GPU păstrează {share} din ele ({n}: {told}); parametrii adunați pentru stratul care rulează și bufferele de comunicare nu sunt adăugați; blocurile dinainte de înregistrare rămân întregi</translation>
    </message>
    <message>
        <source>zero_grad(set_to_none=True) was not tried: the gradients are in use at this moment.</source>
        <translation>zero_grad(set_to_none=True) nu a fost încercat: gradienții sunt folosiți în acest moment.</translation>
    </message>
    <message>
        <source>optimizer.zero_grad(set_to_none=True): the gradients freed after each optimizer step</source>
        <translation>optimizer.zero_grad(set_to_none=True): gradienții eliberați după fiecare pas al optimizatorului</translation>
    </message>
    <message>
        <source>the gradients held since the step before are freed when this stretch begins and made again where the next backward begins; no gradient is accumulated over several forwards</source>
        <translation>gradienții ținuți de la pasul anterior sunt eliberați când începe această porțiune și refăcuți unde începe următoarea trecere înapoi; niciun gradient nu este acumulat peste mai multe treceri înainte</translation>
    </message>
    <message>
        <source>free what was allocated before recording began (start recording earlier to see what it is)</source>
        <translation>eliberați ce a fost alocat înainte de începutul înregistrării (porniți înregistrarea mai devreme pentru a vedea ce este)</translation>
    </message>
    <message>
        <source>none of it is needed: the trace cannot tell what it is; it is given back to the cache as free blocks of the segments that held it</source>
        <translation>nimic din el nu este necesar: jurnalul de evenimente nu poate spune ce este; este returnat cache-ului ca blocuri libere ale segmentelor care îl țineau</translation>
    </message>
    <message>
        <source>nothing is replayed differently: before raising an OOM the allocator itself gives back every cached segment without a live block, so the call adds nothing</source>
        <translation>nimic nu este rejucat altfel: înainte de a ridica un OOM alocatorul însuși returnează fiecare segment din cache fără niciun bloc activ, deci apelul nu adaugă nimic</translation>
    </message>
    <message>
        <source>the cached segments with no live block go back to the device, for other processes; this process gains nothing, since the allocator gives them back itself before running out: the replay is the recorded one</source>
        <translation>segmentele din cache fără niciun bloc activ se întorc la dispozitiv, pentru alte procese; acest proces nu câștigă nimic, căci alocatorul le returnează singur înainte de a rămâne fără memorie: rejucarea este cea înregistrată</translation>
    </message>
    <message>
        <source>torch.cuda.empty_cache() at this moment (it would return {bytes} to the device)</source>
        <translation>torch.cuda.empty_cache() în acest moment (ar returna {bytes} dispozitivului)</translation>
    </message>
    <message>
        <source>CUBLAS_WORKSPACE_CONFIG=:0:0 (and no cuBLASLt workspace): no library workspace kept</source>
        <translation>CUBLAS_WORKSPACE_CONFIG=:0:0 (și niciun spațiu de lucru cuBLASLt): niciun spațiu de lucru de bibliotecă păstrat</translation>
    </message>
    <message>
        <source>the libraries run without their workspaces (slower matrix products); no other request changes</source>
        <translation>bibliotecile rulează fără spațiile lor de lucru (produse de matrice mai lente); nicio altă cerere nu se schimbă</translation>
    </message>
    <message>
        <source>autocast&apos;s fp16/bf16 copies of the weights show they are fp32</source>
        <translation>copiile fp16/bf16 ale ponderilor făcute de autocast arată că sunt fp32</translation>
    </message>
    <message>
        <source>the weights are fp32 (a snapshot records no dtype: if they are already 16-bit, this frees nothing)</source>
        <translation>ponderile sunt fp32 (un instantaneu nu înregistrează dtype: dacă sunt deja pe 16 biți, asta nu eliberează nimic)</translation>
    </message>
    <message>
        <source>keep the weights in bf16 (model.to(torch.bfloat16), or FSDP&apos;s mixed precision)</source>
        <translation>păstrați ponderile în bf16 (model.to(torch.bfloat16), sau precizia mixtă a FSDP)</translation>
    </message>
    <message>
        <source>{evidence}; weights and gradients take half the bytes and autocast&apos;s weight copies go; the optimizer state and the activations are left as recorded</source>
        <translation>{evidence}; ponderile și gradienții ocupă jumătate din octeți, iar copiile ponderilor făcute de autocast dispar; starea optimizatorului și activările rămân așa cum au fost înregistrate</translation>
    </message>
    <message>
        <source>stop keeping references at {site} (it grows by {bytes} a step): e.g. loss.item() instead of the loss, or .detach() before keeping a tensor</source>
        <translation>nu mai păstrați referințe la {site} (crește cu {bytes} pe pas): de ex. loss.item() în loc de loss, sau .detach() înainte de a păstra un tensor</translation>
    </message>
    <message>
        <source>what this line keeps past its step is not needed after it: each such block is freed at the end of the step that made it</source>
        <translation>ce păstrează această linie după pasul ei nu mai este necesar după el: fiecare astfel de bloc este eliberat la sfârșitul pasului care l-a creat</translation>
    </message>
    <message>
        <source>The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}. The stacks show DataParallel, which replicates the model from one GPU and gathers every output on one device; DistributedDataParallel runs one process per GPU, each with its own share of the batch.</source>
        <translation>GPU-urile nu sunt încărcate egal: GPU {device} a ajuns la {peak} rezervați, {n:GPU|GPU-urile|GPU-urile} {others} la {sizes}. Stivele arată DataParallel, care replică modelul de pe un GPU și adună fiecare ieșire pe un singur dispozitiv; DistributedDataParallel rulează un proces pe GPU, fiecare cu partea sa din lot.</translation>
    </message>
    <message>
        <source>The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}.</source>
        <translation>GPU-urile nu sunt încărcate egal: GPU {device} a ajuns la {peak} rezervați, {n:GPU|GPU-urile|GPU-urile} {others} la {sizes}.</translation>
    </message>
    <message>
        <source>DistributedDataParallel instead of DataParallel: each GPU its own share of the batch</source>
        <translation>DistributedDataParallel în loc de DataParallel: fiecare GPU cu partea sa din lot</translation>
    </message>
    <message>
        <source>spread the work evenly over the GPUs</source>
        <translation>împărțiți munca egal între GPU-uri</translation>
    </message>
    <message>
        <source>evenly loaded, GPU {device} would hold the devices&apos; mean ({mean}): its activations, inputs and forward or backward temporaries are taken {fraction} as large</source>
        <translation>încărcat egal, GPU {device} ar ține media dispozitivelor ({mean}): activările, intrările și valorile temporare ale trecerilor înainte sau înapoi sunt luate la {fraction} din mărime</translation>
    </message>
    <message>
        <source>{some} and {last}</source>
        <translation>{some} și {last}</translation>
    </message>
    <message>
        <source>the trace cannot judge this: every segment predates recording (the trace never creates or frees one), and {settings} acts on how segments are made, split or given back</source>
        <translation>jurnalul de evenimente nu poate judeca asta: fiecare segment este dinaintea înregistrării (jurnalul nu creează și nu eliberează niciunul), iar {settings} acționează asupra felului în care segmentele sunt create, împărțite sau returnate</translation>
    </message>
    <message>
        <source>the trace cannot judge this: every segment predates recording (the trace never creates or frees one), and {settings} act on how segments are made, split or given back</source>
        <translation>jurnalul de evenimente nu poate judeca asta: fiecare segment este dinaintea înregistrării (jurnalul nu creează și nu eliberează niciunul), iar {settings} acționează asupra felului în care segmentele sunt create, împărțite sau returnate</translation>
    </message>
</context>
<context>
    <name>SnapshotError</name>
    <message>
        <source>a {bits}-bit integer</source>
        <translation>un întreg de {bits} biți</translation>
    </message>
    <message>
        <source>is {value}, not an integer</source>
        <translation>este {value}, nu un întreg</translation>
    </message>
    <message>
        <source>is {value}, below zero</source>
        <translation>este {value}, sub zero</translation>
    </message>
    <message>
        <source>is {value}, beyond {limit}</source>
        <translation>este {value}, peste {limit}</translation>
    </message>
    <message>
        <source>is {value}, not a pair of integers</source>
        <translation>este {value}, nu o pereche de întregi</translation>
    </message>
    <message>
        <source>holds a value that {problem}</source>
        <translation>conține o valoare care {problem}</translation>
    </message>
    <message>
        <source>is {type}, not a dict</source>
        <translation>este {type}, nu un dict</translation>
    </message>
    <message>
        <source>has no {key}</source>
        <translation>nu are {key}</translation>
    </message>
    <message>
        <source>has an {key} that is {value}, not a string</source>
        <translation>are o valoare {key} care este {value}, nu un șir</translation>
    </message>
    <message>
        <source>has a {key} that {problem}</source>
        <translation>are o valoare {key} care {problem}</translation>
    </message>
    <message>
        <source>ends beyond 2^62 - 1 (&apos;addr&apos; {addr} + &apos;size&apos; {size})</source>
        <translation>se termină după 2^62 - 1 (&apos;addr&apos; {addr} + &apos;size&apos; {size})</translation>
    </message>
    <message>
        <source>has a {key} that is {value}, not a string</source>
        <translation>are o valoare {key} care este {value}, nu un șir</translation>
    </message>
    <message>
        <source>has &apos;frames&apos; that is {value}, not a list</source>
        <translation>are &apos;frames&apos; care este {value}, nu o listă</translation>
    </message>
    <message>
        <source>has a stack frame that is {value}, not a dict</source>
        <translation>are un cadru de stivă care este {value}, nu un dict</translation>
    </message>
    <message>
        <source>is {value}, not a string or a dict</source>
        <translation>este {value}, nu un șir sau un dict</translation>
    </message>
    <message>
        <source>is a dict of {n} keys, beyond {limit}</source>
        <translation>este un dict cu {n} chei, peste {limit}</translation>
    </message>
    <message>
        <source>is a dict whose keys are not all strings</source>
        <translation>este un dict ale cărui chei nu sunt toate șiruri</translation>
    </message>
    <message>
        <source>is a dict nested deeper than {limit}</source>
        <translation>este un dict imbricat pe mai mult de {limit} niveluri</translation>
    </message>
    <message>
        <source>device {device} trace</source>
        <translation>jurnalul de evenimente al dispozitivului {device}</translation>
    </message>
    <message>
        <source>{where}: entry {i} {problem}</source>
        <translation>{where}: intrarea {i} {problem}</translation>
    </message>
    <message>
        <source>{where}: an entry cannot be read</source>
        <translation>{where}: o intrare nu poate fi citită</translation>
    </message>
    <message>
        <source>segment {i} ends beyond 2^62 - 1 (address {address})</source>
        <translation>segmentul {i} se termină după 2^62 - 1 (adresa {address})</translation>
    </message>
    <message>
        <source>segment {i}: a block at {address} ends beyond 2^62 - 1</source>
        <translation>segmentul {i}: un bloc de la {address} se termină după 2^62 - 1</translation>
    </message>
    <message>
        <source>segment {i} ({address}, {size} bytes) has a block outside it ({at}, {bytes} bytes)</source>
        <translation>segmentul {i} ({address}, {size} octeți) are un bloc în afara lui ({at}, {bytes} octeți)</translation>
    </message>
    <message>
        <source>segment {i} has blocks that overlap or are out of order (at {at})</source>
        <translation>segmentul {i} are blocuri care se suprapun sau nu sunt în ordine (la {at})</translation>
    </message>
    <message>
        <source>segments {i} and {j} overlap (at {at} on device {device})</source>
        <translation>segmentele {i} și {j} se suprapun (la {at} pe dispozitivul {device})</translation>
    </message>
    <message>
        <source>its sizes add up to about 2^{power} bytes, beyond what any device holds</source>
        <translation>dimensiunile sale însumează circa 2^{power} octeți, peste ce poate conține orice dispozitiv</translation>
    </message>
    <message>
        <source>{where} {key} holds a value that</source>
        <translation>{where} {key} conține o valoare care</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a table</source>
        <translation>{where} {key} este {value}, nu un tabel</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a number in 0..1</source>
        <translation>{where} {key} este {value}, nu un număr în 0..1</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a string</source>
        <translation>{where} {key} este {value}, nu un șir</translation>
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
<context>
    <name>Warnings</name>
    <message>
        <source>event {event}: alloc of {address}, which is already live</source>
        <translation>evenimentul {event}: alocare la {address}, care este deja activ</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} outside every segment</source>
        <translation>evenimentul {event}: alocare la {address} în afara oricărui segment</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} where no memory is free</source>
        <translation>evenimentul {event}: alocare la {address} unde nu este memorie liberă</translation>
    </message>
    <message>
        <source>event {event}: free_requested of {address}, which is not live</source>
        <translation>evenimentul {event}: free_requested pentru {address}, care nu este activ</translation>
    </message>
    <message>
        <source>event {event}: free_completed of {address}, which is not live</source>
        <translation>evenimentul {event}: free_completed pentru {address}, care nu este activ</translation>
    </message>
    <message>
        <source>event {event}: segment_alloc of {address} over a live segment</source>
        <translation>evenimentul {event}: segment_alloc la {address} peste un segment activ</translation>
    </message>
    <message>
        <source>event {event}: segment_free of {address}, which is not a free segment</source>
        <translation>evenimentul {event}: segment_free pentru {address}, care nu este un segment liber</translation>
    </message>
    <message>
        <source>event {event}: segment_unmap of {address}, which is not free mapped memory</source>
        <translation>evenimentul {event}: segment_unmap pentru {address}, care nu este memorie mapată liberă</translation>
    </message>
    <message>
        <source>block {address} lies in no segment before the first event</source>
        <translation>blocul {address} nu se află în niciun segment înainte de primul eveniment</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} is not live afterwards</source>
        <translation>evenimentul {event}: alocarea la {address} nu este activă după aceea</translation>
    </message>
    <message>
        <source>event {event}: free_completed of {address}, which is live afterwards</source>
        <translation>evenimentul {event}: free_completed pentru {address}, care este activ după aceea</translation>
    </message>
    <message>
        <source>event {event}: segment_map of {address} over a live segment</source>
        <translation>evenimentul {event}: segment_map la {address} peste un segment activ</translation>
    </message>
    <message>
        <source>event {event}: segment_alloc of {address} is not there afterwards</source>
        <translation>evenimentul {event}: segment_alloc la {address} nu mai există după aceea</translation>
    </message>
    <message>
        <source>event {event}: segment_free of {address}, whose memory is a segment afterwards</source>
        <translation>evenimentul {event}: segment_free pentru {address}, a cărui memorie este un segment după aceea</translation>
    </message>
    <message>
        <source>event {event}: segment_map of {address} is not mapped afterwards</source>
        <translation>evenimentul {event}: segment_map la {address} nu este mapat după aceea</translation>
    </message>
    <message>
        <source>event {event}: segment_unmap of {address}, whose memory is mapped afterwards</source>
        <translation>evenimentul {event}: segment_unmap pentru {address}, a cărui memorie este mapată după aceea</translation>
    </message>
    <message>
        <source>replay ends with {unlike} blocks unlike the snapshot and {extra} it does not have</source>
        <translation>rejucarea se încheie cu {unlike} blocuri diferite de instantaneu și {extra} pe care acesta nu le are</translation>
    </message>
    <message>
        <source>no blocks</source>
        <translation>niciun bloc</translation>
    </message>
    <message>
        <source>blocks that cover {covered} of its {total} bytes</source>
        <translation>blocuri care acoperă {covered} din cei {total} octeți ai săi</translation>
    </message>
    <message>
        <source>segment {segment} at {address} has {what}: the rest of it is in no block</source>
        <translation>segmentul {segment} de la {address} are {what}: restul lui nu este în niciun bloc</translation>
    </message>
    <message>
        <source>{n} more segments whose blocks do not add up to their size</source>
        <translation>încă {n} segmente ale căror blocuri nu însumează mărimea lor</translation>
    </message>
    <message>
        <source>... and {n} more</source>
        <translation>... și încă {n}</translation>
    </message>
</context>
</TS>
