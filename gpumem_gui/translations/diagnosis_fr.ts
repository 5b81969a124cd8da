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
    <name>CategoryRules</name>
    <message>
        <source>no alloc event in the trace: live before recording began</source>
        <translation>aucun événement d&apos;allocation dans la trace&#x202f;: vivant avant le début de l&apos;enregistrement</translation>
    </message>
    <message>
        <source>allocated by a library&apos;s workspace set-up (cuBLAS getNewWorkspace/getCurrentCUDABlasHandle, cuBLASLt, cuDNN, NCCL): kept for the whole process</source>
        <translation>alloué à la mise en place de l&apos;espace de travail d&apos;une bibliothèque (cuBLAS getNewWorkspace/getCurrentCUDABlasHandle, cuBLASLt, cuDNN, NCCL)&#x202f;: gardé pendant tout le processus</translation>
    </message>
    <message>
        <source>exactly cuBLAS&apos;s default workspace (32 MiB on Hopper, 8.125 MiB before), the first block of that size in its phase, made at its first matrix product and never freed: one per thread and stream (the autograd thread&apos;s has no Python frames)</source>
        <translation>exactement l&apos;espace de travail par défaut de cuBLAS (32&#xa0;Mio sur Hopper, 8,125&#xa0;Mio avant), le premier bloc de cette taille dans sa phase, fait à son premier produit matriciel et jamais libéré&#x202f;: un par thread et par stream (celui du thread d&apos;autograd n&apos;a pas de cadres Python)</translation>
    </message>
    <message>
        <source>allocated while the model was built, loaded or moved (Module.to/_apply, reset_parameters, load_state_dict, from_pretrained, a module&apos;s __init__)</source>
        <translation>alloué pendant que le modèle était construit, chargé ou déplacé (Module.to/_apply, reset_parameters, load_state_dict, from_pretrained, le __init__ d&apos;un module)</translation>
    </message>
    <message>
        <source>allocated by autograd&apos;s AccumulateGrad: a leaf&apos;s .grad</source>
        <translation>alloué par AccumulateGrad d&apos;autograd&#x202f;: le .grad d&apos;une feuille</translation>
    </message>
    <message>
        <source>autocast&apos;s cast (at::autocast -&gt; _to_copy, no Python .to()) to half the size of a weight block: the low-precision copy of an fp32 weight, cached until the autocast region ends</source>
        <translation>la conversion d&apos;autocast (autocast d&apos;ATen -&gt; _to_copy, sans .to() Python) à la moitié de la taille d&apos;un bloc de poids&#x202f;: la copie basse précision d&apos;un poids fp32, gardée jusqu&apos;à la fin de la région autocast</translation>
    </message>
    <message>
        <source>made by a forward run inside backward (checkpointing&apos;s recomputation)</source>
        <translation>créé par une passe avant exécutée pendant la passe arrière (le recalcul du checkpointing)</translation>
    </message>
    <message>
        <source>allocated and freed within one stretch of the same phase (scratch space)</source>
        <translation>alloué et libéré dans une même séquence de la même phase (espace de travail temporaire)</translation>
    </message>
    <message>
        <source>a batch sent to the device: DataParallel&apos;s scatter, or a .to(device)/.cuda() (send_to_device, BatchEncoding.to, ...) outside any forward, backward or optimizer step</source>
        <translation>un lot envoyé sur le périphérique&#x202f;: le scatter de DataParallel, ou un .to(device)/.cuda() (send_to_device, BatchEncoding.to, ...) hors de toute passe avant, passe arrière ou étape de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>replica (DataParallel broadcast: nn/parallel/replicate.py)</source>
        <translation>réplique (diffusion de DataParallel&#x202f;: nn/parallel/replicate.py)</translation>
    </message>
    <message>
        <source>made by the optimizer and kept past its step (exp_avg, exp_avg_sq, momentum buffers)</source>
        <translation>créé par l&apos;optimiseur et gardé après son étape (exp_avg, exp_avg_sq, tampons de momentum)</translation>
    </message>
    <message>
        <source>made in backward and kept past it</source>
        <translation>créé dans la passe arrière et gardé après elle</translation>
    </message>
    <message>
        <source>made in a forward and kept past it (saved for backward, or its output)</source>
        <translation>créé dans une passe avant et gardé après elle (sauvé pour la passe arrière, ou sa sortie)</translation>
    </message>
    <message>
        <source>made by code outside any module&apos;s forward and freed in backward (saved for it)</source>
        <translation>créé par du code hors de la passe avant de tout module et libéré dans la passe arrière (sauvé pour elle)</translation>
    </message>
    <message>
        <source>the file&apos;s own category (torch.cuda._memory_viz._profile_to_snapshot, from PyTorch&apos;s memory profiler)</source>
        <translation>la catégorie du fichier lui-même (torch.cuda._memory_viz._profile_to_snapshot, du profileur mémoire de PyTorch)</translation>
    </message>
    <message>
        <source>no rule matched (no frames, or frames that name no phase)</source>
        <translation>aucune règle ne s&apos;applique (aucun cadre, ou des cadres qui ne nomment aucune phase)</translation>
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
    <name>Diagnosis</name>
    <message>
        <source>an allocation</source>
        <translation>une allocation</translation>
    </message>
    <message>
        <source>a free, requested</source>
        <translation>une libération, demandée</translation>
    </message>
    <message>
        <source>a free, completed</source>
        <translation>une libération, terminée</translation>
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
        <translation>pages mappées</translation>
    </message>
    <message>
        <source>pages unmapped</source>
        <translation>pages démappées</translation>
    </message>
    <message>
        <source>an OOM</source>
        <translation>un OOM</translation>
    </message>
    <message>
        <source>an event</source>
        <translation>un événement</translation>
    </message>
    <message>
        <source>{allocated} allocated in {reserved} reserved</source>
        <translation>{allocated} alloués dans {reserved} réservés</translation>
    </message>
    <message>
        <source>Device {device} ran out of memory at event {event} of {n} (its first OOM).</source>
        <translation>Le périphérique {device} a manqué de mémoire à l&apos;événement {event} sur {n} (son premier OOM).</translation>
    </message>
    <message>
        <source>Device {device} has no OOM in its trace; this is its peak of allocated memory, at event {event} of {n}: {held}.</source>
        <translation>Le périphérique {device} n&apos;a aucun OOM dans sa trace&#x202f;; voici son pic de mémoire allouée, à l&apos;événement {event} sur {n}&#x202f;: {held}.</translation>
    </message>
    <message>
        <source>Device {device} has no trace in this file; this is its state when the snapshot was taken: {held}.</source>
        <translation>Le périphérique {device} n&apos;a pas de trace dans ce fichier&#x202f;; voici son état au moment de l&apos;instantané&#x202f;: {held}.</translation>
    </message>
    <message>
        <source>Device {device} before the first event: {held}.</source>
        <translation>Le périphérique {device} avant le premier événement&#x202f;: {held}.</translation>
    </message>
    <message>
        <source>Device {device} right after event {event} of {n} ({action}): {held}.</source>
        <translation>Le périphérique {device} juste après l&apos;événement {event} sur {n} ({action})&#x202f;: {held}.</translation>
    </message>
    <message>
        <source>Device {device} right after event {event} of {n}: {held}.</source>
        <translation>Le périphérique {device} juste après l&apos;événement {event} sur {n}&#x202f;: {held}.</translation>
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
        <source>small pool of private pool {pool}</source>
        <translation>petit pool du pool privé {pool}</translation>
    </message>
    <message>
        <source>large pool of private pool {pool}</source>
        <translation>grand pool du pool privé {pool}</translation>
    </message>
    <message>
        <source>The request needed {needed} more from the device, which had {device_free} free (cudaMemGetInfo at the OOM): enough. A memory limit of this process refused it (torch.cuda.set_per_process_memory_fraction, or per_process_memory_fraction in PYTORCH_CUDA_ALLOC_CONF), unless another process took that memory meanwhile. The trace does not record the limit: the process held {reserved}, so it was under {under}.</source>
        <translation>La demande exigeait {needed} de plus du périphérique, qui avait {device_free} de libre (cudaMemGetInfo à l&apos;OOM)&#x202f;: assez. Une limite de mémoire de ce processus l&apos;a refusée (torch.cuda.set_per_process_memory_fraction, ou per_process_memory_fraction dans PYTORCH_CUDA_ALLOC_CONF), à moins qu&apos;un autre processus n&apos;ait pris cette mémoire entre-temps. La trace n&apos;enregistre pas la limite&#x202f;: le processus détenait {reserved}, elle était donc inférieure à {under}.</translation>
    </message>
    <message>
        <source>The probe recorded that limit: {given}, the process&apos;s memory fraction of the device; the figures here take it.</source>
        <translation>La sonde a enregistré cette limite&#x202f;: {given}, la fraction de mémoire du processus sur le périphérique&#x202f;; les chiffres ici la prennent.</translation>
    </message>
    <message>
        <source>The limit given is {given}: the figures and replays here take it.</source>
        <translation>La limite donnée est {given}&#x202f;: les chiffres et rejeux ici la prennent.</translation>
    </message>
    <message>
        <source>Earlier in the recording it held {held}, more than that: the limit was set or lowered since, and the figures and replays here take it just under {under}.</source>
        <translation>Plus tôt dans l&apos;enregistrement, il détenait {held}, davantage&#x202f;: la limite a été fixée ou abaissée depuis, et les chiffres et rejeux ici la prennent juste sous {under}.</translation>
    </message>
    <message>
        <source>Earlier in the recording it held {held}: if the limit was the same all along, at least that much was allowed, and the figures and replays here take that lowest limit, so a remedy that fits under it fits under the real one.</source>
        <translation>Plus tôt dans l&apos;enregistrement, il détenait {held}&#x202f;: si la limite est restée la même, au moins cela était permis, et les chiffres et rejeux ici prennent cette limite la plus basse, de sorte qu&apos;un remède qui tient sous elle tient sous la vraie.</translation>
    </message>
    <message>
        <source>{refused} {then}</source>
        <translation>{refused} {then}</translation>
    </message>
    <message>
        <source>The program</source>
        <translation>Le programme</translation>
    </message>
    <message>
        <source>{who} asked for {request}, rounded as the allocator rounds it, from the {pool} on stream {stream}.</source>
        <translation>{who} a demandé {request}, arrondi comme l&apos;allocateur arrondit, au {pool} sur le stream {stream}.</translation>
    </message>
    <message>
        <source>A new segment for it needed {segment} from cudaMalloc, but the device had only {device_free} free (cudaMemGetInfo at the OOM).</source>
        <translation>Un nouveau segment pour elle demandait {segment} à cudaMalloc, mais le périphérique n&apos;avait que {device_free} de libre (cudaMemGetInfo à l&apos;OOM).</translation>
    </message>
    <message>
        <source>The cache had {pool_free} free in that pool, but its largest hole was {hole}: no free block could serve the request.</source>
        <translation>Le cache avait {pool_free} de libre dans ce pool, mais son plus grand trou faisait {hole}&#x202f;: aucun bloc libre ne pouvait servir la demande.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already given back every cached segment without a live block (what empty_cache() does), so an empty_cache() before this request would not have helped.</source>
        <translation>Avant de lever l&apos;OOM, l&apos;allocateur avait déjà rendu chaque segment du cache sans bloc vivant (ce que fait empty_cache()), donc un empty_cache() avant cette demande n&apos;aurait pas aidé.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already given back every cached segment without a live block (what empty_cache() does), except those of private pools still in use: pool {pool} keeps its own until the program releases it (destroys its graphs, deletes its MemPool), so an empty_cache() before this request would not have helped.</source>
        <translation>Avant de lever l&apos;OOM, l&apos;allocateur avait déjà rendu chaque segment du cache sans bloc vivant (ce que fait empty_cache()), sauf ceux des pools privés encore utilisés&#x202f;: le pool {pool} garde les siens jusqu&apos;à ce que le programme le libère (détruise ses graphes, supprime son MemPool), donc un empty_cache() avant cette demande n&apos;aurait pas aidé.</translation>
    </message>
    <message>
        <source>Before raising the OOM the allocator had already unmapped every page of its segments that no live block touches (what empty_cache() does), so an empty_cache() before this request would not have helped.</source>
        <translation>Avant de lever l&apos;OOM, l&apos;allocateur avait déjà démappé chaque page de ses segments qu&apos;aucun bloc vivant ne touche (ce que fait empty_cache()), donc un empty_cache() avant cette demande n&apos;aurait pas aidé.</translation>
    </message>
    <message>
        <source>{size} at {address} from {site}</source>
        <translation>{size} à {address} depuis {site}</translation>
    </message>
    <message>
        <source> (and {n} more)</source>
        <translation> (et {n} de plus)</translation>
    </message>
    <message>
        <source>{n} segment(s) of {size} with {free} free</source>
        <translation>{n} {n:segment|segments} de {size} avec {free} de libre</translation>
    </message>
    <message>
        <source>{count} live block(s) split the holes of {segments}: without them the holes would have been one, large enough for the request. They are: {named}{more}.</source>
        <translation>{count} {count:bloc vivant coupe|blocs vivants coupent} les trous de {segments}&#x202f;: sans eux les trous n&apos;en feraient qu&apos;un, assez grand pour la demande. Ce sont&#x202f;: {named}{more}.</translation>
    </message>
    <message>
        <source>{count} live block(s) keep {segments} from being released: without them the allocator would have given those segments back and cudaMalloc&apos;ed the request ({device_free} + {released} &gt;= {needed}). They are: {named}{more}.</source>
        <translation>{count} {count:bloc vivant empêche|blocs vivants empêchent} de libérer {segments}&#x202f;: sans eux l&apos;allocateur aurait rendu ces segments et obtenu la demande par cudaMalloc ({device_free} + {released} &gt;= {needed}). Ce sont&#x202f;: {named}{more}.</translation>
    </message>
    <message>
        <source>Even all the free memory of the cache and what was left under the limit together ({cache_free} + {left}) is less than the request: no rearrangement of free memory could have served it, only a smaller request, a smaller live set or a higher limit.</source>
        <translation>Même toute la mémoire libre du cache et ce qui restait sous la limite ensemble ({cache_free} + {left}) est inférieure à la demande&#x202f;: aucun réarrangement de la mémoire libre n&apos;aurait pu la servir, seulement une demande plus petite, un ensemble vivant plus petit ou une limite plus haute.</translation>
    </message>
    <message>
        <source>Even all the free memory of the cache and the device together ({cache_free} + {device_free}) is less than the request: no rearrangement of free memory could have served it, only a smaller request or a smaller live set.</source>
        <translation>Même toute la mémoire libre du cache et du périphérique ensemble ({cache_free} + {device_free}) est inférieure à la demande&#x202f;: aucun réarrangement de la mémoire libre n&apos;aurait pu la servir, seulement une demande plus petite ou un ensemble vivant plus petit.</translation>
    </message>
    <message>
        <source>the larger of what the largest hole serves and what a new segment in the device&apos;s free memory serves ({new})</source>
        <translation>le plus grand de ce que sert le plus grand trou et de ce que sert un nouveau segment dans la mémoire libre du périphérique ({new})</translation>
    </message>
    <message>
        <source>the larger of what the largest hole serves and what new memory under the limit serves ({new})</source>
        <translation>le plus grand de ce que sert le plus grand trou et de ce que sert de la nouvelle mémoire sous la limite ({new})</translation>
    </message>
    <message>
        <source>The request would have fitted at {fits} or less ({smaller} smaller): {how}.</source>
        <translation>La demande aurait tenu à {fits} ou moins ({smaller} de moins)&#x202f;: {how}.</translation>
    </message>
    <message>
        <source>By these figures the request should have fitted: another stream&apos;s holes, a private pool or memory freed while the OOM was handled may explain the difference.</source>
        <translation>D&apos;après ces chiffres la demande aurait dû tenir&#x202f;: les trous d&apos;un autre stream, un pool privé ou de la mémoire libérée pendant le traitement de l&apos;OOM peuvent expliquer la différence.</translation>
    </message>
    <message>
        <source>Or the live set would have to shrink by {excess}, freed as whole {page} pages (a page goes back to the device only when no live block lies on it).</source>
        <translation>Ou l&apos;ensemble vivant devrait diminuer de {excess}, libérés en pages entières de {page} (une page ne revient au périphérique que si aucun bloc vivant n&apos;y est posé).</translation>
    </message>
    <message>
        <source>Or the live set would have to shrink by {excess}, freed as whole segments (a segment goes back to the device only when none of its blocks is live).</source>
        <translation>Ou l&apos;ensemble vivant devrait diminuer de {excess}, libérés en segments entiers (un segment ne revient au périphérique que si aucun de ses blocs n&apos;est vivant).</translation>
    </message>
    <message>
        <source>Its stack in your code, innermost first: {frames}{more}.</source>
        <translation>Sa pile dans votre code, le cadre le plus interne d&apos;abord&#x202f;: {frames}{more}.</translation>
    </message>
    <message>
        <source>{n} {n:page|pages} of {size}</source>
        <translation>{n} {n:page|pages} de {size}</translation>
    </message>
    <message>
        <source>a new expandable segment</source>
        <translation>un nouveau segment extensible</translation>
    </message>
    <message>
        <source>the free tail of {tail} at the end of the segment at {segment}</source>
        <translation>la queue libre de {tail} à la fin du segment à {segment}</translation>
    </message>
    <message>
        <source>Expandable segments are on, so the allocator grows a segment by mapping pages rather than by cudaMalloc: the request needed {pages} ({bytes}) mapped onto {where}, but the device had only {device_free} free (cudaMemGetInfo at the OOM), room for {room}.</source>
        <translation>Les segments extensibles sont activés, donc l&apos;allocateur agrandit un segment en mappant des pages plutôt que par cudaMalloc&#x202f;: la demande exigeait {pages} ({bytes}) mappées sur {where}, mais le périphérique n&apos;avait que {device_free} de libre (cudaMemGetInfo à l&apos;OOM), de la place pour {room}.</translation>
    </message>
    <message>
        <source>what the largest hole serves; the device could not map enough pages for more</source>
        <translation>ce que sert le plus grand trou&#x202f;; le périphérique ne pouvait pas mapper assez de pages pour davantage</translation>
    </message>
    <message>
        <source>{pages} the device could still map, in a new expandable segment</source>
        <translation>{pages} que le périphérique pouvait encore mapper, dans un nouveau segment extensible</translation>
    </message>
    <message>
        <source>, plus {beyond} free in the segment after them</source>
        <translation>, plus {beyond} de libre dans le segment après elles</translation>
    </message>
    <message>
        <source>the free tail of {tail} at the end of the segment at {segment}, plus {pages} the device could still map after it{more}; the allocator grows the first segment, by address, with room for the request, and maps no page elsewhere when that fails</source>
        <translation>la queue libre de {tail} à la fin du segment à {segment}, plus {pages} que le périphérique pouvait encore mapper après elle{more}&#x202f;; l&apos;allocateur agrandit le premier segment, par adresse, qui a de la place pour la demande, et ne mappe aucune page ailleurs quand cela échoue</translation>
    </message>
    <message>
        <source>Nothing is allocated at this moment.</source>
        <translation>Rien n&apos;est alloué à ce moment.</translation>
    </message>
    <message>
        <source>By category (the file&apos;s own categories, from PyTorch&apos;s memory profiler): {categories}.</source>
        <translation>Par catégorie (les catégories du fichier lui-même, du profileur mémoire de PyTorch)&#x202f;: {categories}.</translation>
    </message>
    <message>
        <source>By category: {categories}.</source>
        <translation>Par catégorie&#x202f;: {categories}.</translation>
    </message>
    <message>
        <source>What holds the memory: {sites}.</source>
        <translation>Ce qui tient la mémoire&#x202f;: {sites}.</translation>
    </message>
    <message>
        <source>Every reserved byte is allocated.</source>
        <translation>Chaque octet réservé est alloué.</translation>
    </message>
    <message>
        <source>{bytes} is free inside segments that also hold live blocks (split blocks: the allocator cannot give them back)</source>
        <translation>{bytes} sont libres dans des segments qui tiennent aussi des blocs vivants (blocs découpés&#x202f;: l&apos;allocateur ne peut pas les rendre)</translation>
    </message>
    <message>
        <source>{bytes} is {n} wholly free segment(s) the cache keeps for later requests (empty_cache() would give them back)</source>
        <translation>{bytes} sont {n} {n:segment entièrement libre|segments entièrement libres} que le cache garde pour des demandes ultérieures (empty_cache() les rendrait)</translation>
    </message>
    <message>
        <source>{bytes} is {n} wholly free segment(s) of private pools (CUDA graphs, MemPool), kept for the pools&apos; own requests (empty_cache() gives them back only once the pool is released)</source>
        <translation>{bytes} sont {n} {n:segment entièrement libre|segments entièrement libres} de pools privés (graphes CUDA, MemPool), gardés pour les demandes de ces pools (empty_cache() ne les rend qu&apos;une fois le pool libéré)</translation>
    </message>
    <message>
        <source>{bytes} is free pages of expandable segments</source>
        <translation>{bytes} sont des pages libres de segments extensibles</translation>
    </message>
    <message>
        <source>{bytes} is freed but waits for other streams (pending free)</source>
        <translation>{bytes} sont libérés mais attendent d&apos;autres streams (libération en attente)</translation>
    </message>
    <message>
        <source>Reserved but not allocated: {gap}. {parts}.</source>
        <translation>Réservé mais non alloué&#x202f;: {gap}. {parts}.</translation>
    </message>
    <message>
        <source>{n} of the {total} requests after this moment were larger than its largest cached hole ({hole}), so no hole cached here could serve them.</source>
        <translation>{n} des {total} demandes après ce moment étaient plus grandes que son plus grand trou en cache ({hole}), donc aucun trou en cache ici ne pouvait les servir.</translation>
    </message>
    <message>
        <source>This is a snapshot made by torch.cuda._memory_viz._profile_to_snapshot from a torch.profiler run (profile_memory=True): its one segment per device spans the addresses the profiler saw (lowest to highest end), not memory the caching allocator reserved: the gaps between tensors are no free cache, so this file has no free memory, largest hole or fragmentation to report.</source>
        <translation>Ceci est un instantané fait par torch.cuda._memory_viz._profile_to_snapshot à partir d&apos;une exécution de torch.profiler (profile_memory=True)&#x202f;: son unique segment par périphérique couvre les adresses que le profileur a vues (de la plus basse à la fin la plus haute), pas de la mémoire réservée par l&apos;allocateur à cache&#x202f;: les espaces entre tenseurs ne sont pas du cache libre, donc ce fichier n&apos;a ni mémoire libre, ni plus grand trou, ni fragmentation à signaler.</translation>
    </message>
</context>
<context>
    <name>Explain</name>
    <message>
        <source>Each remedy is a replay of the recorded allocations and frees through the allocator simulator: a setting replays them as recorded, assuming the program makes the same requests in the same order; a change to the program replays them changed as that change would change them (what it assumes is in its row).</source>
        <translation>Chaque remède est un rejeu des allocations et libérations enregistrées à travers le simulateur de l&apos;allocateur&#x202f;: un réglage les rejoue telles qu&apos;enregistrées, en supposant que le programme fait les mêmes demandes dans le même ordre&#x202f;; un changement du programme les rejoue modifiées comme ce changement les modifierait (ce qu&apos;il suppose est dans sa ligne).</translation>
    </message>
    <message>
        <source>Each change to the program below is replayed as a changed trace: the recorded requests with those the change acts on dropped, shrunk or freed for a while, every other request as recorded, up to the request explained (the whole trace at a peak). It is a model of the change, not the changed program; what each one assumes is said with it.</source>
        <translation>Chaque changement du programme ci-dessous est rejoué comme une trace modifiée&#x202f;: les demandes enregistrées, celles sur lesquelles agit le changement supprimées, réduites ou libérées un moment, toute autre demande telle qu&apos;enregistrée, jusqu&apos;à la demande expliquée (toute la trace pour un pic). C&apos;est un modèle du changement, pas le programme modifié&#x202f;; ce que chacun suppose est dit avec lui.</translation>
    </message>
    <message>
        <source>{total} in all</source>
        <translation>{total} en tout</translation>
    </message>
    <message>
        <source>The replays here assumed a private pool the trace does not name (a MemPool or CUDA graph freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room: each remedy&apos;s replay keeps that pool&apos;s memory apart, as the recorded run did.</source>
        <translation>Les rejeux ici ont supposé un pool privé que la trace ne nomme pas (un MemPool ou un graphe CUDA libéré avant l&apos;instantané), déduit de {n} {n:segment|segments} ({sizes}) que l&apos;allocateur enregistré a créés alors que le pool par défaut avait de la place&#x202f;: le rejeu de chaque remède garde la mémoire de ce pool à part, comme l&apos;a fait l&apos;exécution enregistrée.</translation>
    </message>
    <message>
        <source>The replays here assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room: each remedy&apos;s replay keeps those pools&apos; memory apart, as the recorded run did.</source>
        <translation>Les rejeux ici ont supposé {pools} pools privés que la trace ne nomme pas (des MemPool ou des graphes CUDA libérés avant l&apos;instantané), déduits de {n} {n:segment|segments} ({sizes}) que l&apos;allocateur enregistré a créés alors que le pool par défaut avait de la place&#x202f;: le rejeu de chaque remède garde la mémoire de ces pools à part, comme l&apos;a fait l&apos;exécution enregistrée.</translation>
    </message>
    <message>
        <source>peak reserved {peak}, recorded {recorded}</source>
        <translation>pic réservé {peak}, enregistré {recorded}</translation>
    </message>
    <message>
        <source>With {settings} {reason}; the replay ({after}) starts from the segments the recorded settings made.</source>
        <translation>Avec {settings}&#x202f;: {reason}&#x202f;; le rejeu ({after}) part des segments faits par les réglages enregistrés.</translation>
    </message>
    <message>
        <source>With {settings} the OOM goes away ({after}).</source>
        <translation>Avec {settings} l&apos;OOM disparaît ({after}).</translation>
    </message>
    <message>
        <source>With {settings} the replay still runs out of memory ({n} OOM; {after}).</source>
        <translation>Avec {settings} le rejeu manque encore de mémoire ({n} OOM&#x202f;; {after}).</translation>
    </message>
    <message>
        <source>With {settings}: {after}.</source>
        <translation>Avec {settings}&#x202f;: {after}.</translation>
    </message>
    <message>
        <source>With {settings} the replay runs out of memory ({n} OOM; {after}).</source>
        <translation>Avec {settings} le rejeu manque de mémoire ({n} OOM&#x202f;; {after}).</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; the replay cannot judge it ({reason})</source>
        <translation>libère {frees} à ce moment&#x202f;; le rejeu ne peut pas en juger ({reason})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment, and the request then fits: the changed trace replays to it with no OOM (peak reserved {peak})</source>
        <translation>libère {frees} à ce moment, et la demande tient alors&#x202f;: la trace modifiée se rejoue jusqu&apos;à elle sans OOM (pic réservé {peak})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment, but the request still does not fit: the changed trace&apos;s replay runs out of memory (peak reserved {peak})</source>
        <translation>libère {frees} à ce moment, mais la demande ne tient toujours pas&#x202f;: le rejeu de la trace modifiée manque de mémoire (pic réservé {peak})</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; replayed, peak reserved {peak}: {room} of headroom against the recorded settings&apos; replay</source>
        <translation>libère {frees} à ce moment&#x202f;; rejoué, pic réservé {peak}&#x202f;: {room} de marge par rapport au rejeu des réglages enregistrés</translation>
    </message>
    <message>
        <source>frees {frees} at this moment; replayed, peak reserved {peak}: no headroom against the recorded settings&apos; replay</source>
        <translation>libère {frees} à ce moment&#x202f;; rejoué, pic réservé {peak}&#x202f;: aucune marge par rapport au rejeu des réglages enregistrés</translation>
    </message>
    <message>
        <source>{verdict} ({n} OOM in the replay)</source>
        <translation>{verdict} ({n} OOM dans le rejeu)</translation>
    </message>
    <message>
        <source>{change}: {verdict}. It assumes {assumes}.</source>
        <translation>{change}&#x202f;: {verdict}. Cela suppose&#x202f;: {assumes}.</translation>
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
        <translation>Normal&#x202f;: moins de 20 % du réservé ou moins de 1&#xa0;Gio&#x202f;: de la mémoire que le cache garde pour les demandes suivantes.</translation>
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
Cela ne compte que si beaucoup est libre (20 % du réservé et 1&#xa0;Gio)&#x202f;; avec peu de libre c&apos;est sans danger. Sous 50 % c&apos;est normal.</translation>
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
        <source>OOM at event {event} (and {more} more): a request of {requested} failed while the device had {device_free} free: a memory limit of this process (a memory fraction) refused it, not the device.</source>
        <translation>OOM à l&apos;événement {event} (et {more} de plus)&#x202f;: une demande de {requested} a échoué alors que le périphérique avait {device_free} de libre&#x202f;: une limite de mémoire de ce processus (une fraction de mémoire) l&apos;a refusée, pas le périphérique.</translation>
    </message>
    <message>
        <source>OOM at event {event}: a request of {requested} failed while the device had {device_free} free: a memory limit of this process (a memory fraction) refused it, not the device.</source>
        <translation>OOM à l&apos;événement {event}&#x202f;: une demande de {requested} a échoué alors que le périphérique avait {device_free} de libre&#x202f;: une limite de mémoire de ce processus (une fraction de mémoire) l&apos;a refusée, pas le périphérique.</translation>
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
        <translation>la fin de chacune des {n} phases ({name}), lues dans les cadres des piles</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>la passe avant</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>la passe arrière</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>l&apos;étape de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>load</source>
        <translation>le chargement</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>le checkpoint</translation>
    </message>
    <message>
        <source>init</source>
        <translation>l&apos;initialisation</translation>
    </message>
    <message>
        <source>just before each of the {n} allocations from {where}, one every ~{gap} events</source>
        <translation>juste avant chacune des {n} allocations de {where}, une tous les ~{gap} événements</translation>
    </message>
    <message>
        <source>{site} (allocated in {phase}) grows by {per_step} per step over {steps} steps (from {first} to {last}): memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph.</source>
        <translation>{site} (alloué pendant {phase}) croît de {per_step} par pas sur {steps} pas (de {first} à {last})&#x202f;: de la mémoire gardée de chaque pas, p. ex. un tenseur ajouté à une liste ou une loss gardée avec son graphe.</translation>
    </message>
    <message>
        <source>{site} grows by {per_step} per step over {steps} steps (from {first} to {last}): memory kept from each step, e.g. a tensor appended to a list or a loss kept with its graph.</source>
        <translation>{site} croît de {per_step} par pas sur {steps} pas (de {first} à {last})&#x202f;: de la mémoire gardée de chaque pas, p. ex. un tenseur ajouté à une liste ou une loss gardée avec son graphe.</translation>
    </message>
    <message>
        <source>{n} more sites grow too.</source>
        <translation>{n} autres sites croissent aussi.</translation>
    </message>
    <message>
        <source>Steps measured at {how}; a site counts as growing at {size} or more a step, holding more after {share} of the steps.</source>
        <translation>Pas mesurés à {how}&#x202f;; un site compte comme croissant à partir de {size} par pas, s&apos;il tient davantage après {share} des pas.</translation>
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
    <name>Remedies</name>
    <message>
        <source>{change}, with {settings}</source>
        <translation>{change}, avec {settings}</translation>
    </message>
    <message>
        <source>make the failing request {size} (compute it in chunks, or a smaller shape)</source>
        <translation>faire la demande qui échoue de {size} (la calculer par morceaux, ou une forme plus petite)</translation>
    </message>
    <message>
        <source>only the failing request changes; every other request is as recorded</source>
        <translation>seule la demande qui échoue change&#x202f;; toute autre demande est telle qu&apos;enregistrée</translation>
    </message>
    <message>
        <source>the program makes the same requests in the same order under these settings</source>
        <translation>le programme fait les mêmes demandes dans le même ordre sous ces réglages</translation>
    </message>
    <message>
        <source>There is no trace to replay, so no remedy could be verified.</source>
        <translation>Il n&apos;y a pas de trace à rejouer, donc aucun remède n&apos;a pu être vérifié.</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the simulator runs out of memory too (peak reserved {peak}).</source>
        <translation>Rejoué sous les réglages enregistrés, le simulateur manque aussi de mémoire (pic réservé {peak}).</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the simulator does not run out of memory: it does not reproduce this run, so the remedies below are less certain.</source>
        <translation>Rejoué sous les réglages enregistrés, le simulateur ne manque pas de mémoire&#x202f;: il ne reproduit pas cette exécution, donc les remèdes ci-dessous sont moins sûrs.</translation>
    </message>
    <message>
        <source>Replayed under the recorded settings, the peak reserved is {peak}.</source>
        <translation>Rejoué sous les réglages enregistrés, le pic réservé est de {peak}.</translation>
    </message>
    <message>
        <source>expandable_segments was already on in the recorded run.</source>
        <translation>expandable_segments était déjà activé dans l&apos;exécution enregistrée.</translation>
    </message>
    <message>
        <source>Of the max_split_size_mb values only {value} was tried: each replay of a trace this long takes seconds (try others with `gpumem-gui replay --set`).</source>
        <translation>Parmi les valeurs de max_split_size_mb seule {value} a été essayée&#x202f;: chaque rejeu d&apos;une trace aussi longue prend des secondes (essayer les autres avec `gpumem-gui replay --set`).</translation>
    </message>
    <message>
        <source>max_split_size_mb was not tried: the request ({request}) is below the smallest useful value ({smallest} MB), so it would be split as before.</source>
        <translation>max_split_size_mb n&apos;a pas été essayé&#x202f;: la demande ({request}) est sous la plus petite valeur utile ({smallest} Mo), donc elle serait découpée comme avant.</translation>
    </message>
    <message>
        <source>garbage_collection_threshold was not tried: it acts against a memory fraction of the device, and a trace without an OOM does not tell the device&apos;s capacity.</source>
        <translation>garbage_collection_threshold n&apos;a pas été essayé&#x202f;: il agit par rapport à une fraction de la mémoire du périphérique, et une trace sans OOM ne dit pas la capacité du périphérique.</translation>
    </message>
    <message>
        <source>empty_cache() before the failing request was not replayed: the replay only repeats the program&apos;s own empty_cache() calls (and the allocator releases the same segments before any OOM).</source>
        <translation>empty_cache() avant la demande qui échoue n&apos;a pas été rejoué&#x202f;: le rejeu ne répète que les appels empty_cache() du programme lui-même (et l&apos;allocateur libère les mêmes segments avant tout OOM).</translation>
    </message>
    <message>
        <source>{bytes} in pool {pool}</source>
        <translation>{bytes} dans le pool {pool}</translation>
    </message>
    <message>
        <source>Private pools (CUDA graphs, torch.cuda.MemPool) hold {held} of the {reserved} reserved at this moment ({each}). The replays keep those blocks for the pools&apos; own requests, and empty_cache() gives a pool&apos;s memory back only once the graphs using it are destroyed (or the MemPool deleted).</source>
        <translation>Les pools privés (graphes CUDA, torch.cuda.MemPool) tiennent {held} des {reserved} réservés à ce moment ({each}). Les rejeux gardent ces blocs pour les demandes des pools, et empty_cache() ne rend la mémoire d&apos;un pool qu&apos;une fois détruits les graphes qui l&apos;utilisent (ou le MemPool supprimé).</translation>
    </message>
    <message>
        <source>The replay with {what} failed ({error}); it is left out.</source>
        <translation>Le rejeu avec {what} a échoué ({error})&#x202f;; il est laissé de côté.</translation>
    </message>
    <message>
        <source>Checkpointing was not tried: no activation is held at this moment.</source>
        <translation>Le checkpointing des activations n&apos;a pas été essayé&#x202f;: aucune activation n&apos;est tenue à ce moment.</translation>
    </message>
    <message>
        <source>checkpoint {sites} (torch.utils.checkpoint: its activations recomputed in backward, not kept)</source>
        <translation>checkpointing de {sites} (torch.utils.checkpoint&#x202f;: ses activations recalculées dans la passe arrière, pas gardées)</translation>
    </message>
    <message>
        <source>each activation of these sites is freed once the next allocation is made (the next operation has read it) and made again just before backward frees it (its recomputation); the input each checkpointed region keeps is not added back</source>
        <translation>chaque activation de ces sites est libérée dès que l&apos;allocation suivante est faite (l&apos;opération suivante l&apos;a lue) et refaite juste avant que la passe arrière la libère (son recalcul)&#x202f;; l&apos;entrée que garde chaque région sous point de contrôle n&apos;est pas rajoutée</translation>
    </message>
    <message>
        <source>A smaller batch was not tried: no activation, input or forward temporary is held at this moment.</source>
        <translation>Un lot plus petit n&apos;a pas été essayé&#x202f;: aucune activation, entrée ou temporaire de passe avant n&apos;est tenu à ce moment.</translation>
    </message>
    <message>
        <source>every activation, input and forward or backward temporary scales with the batch, and so does the failing request; parameters, gradients and optimizer state do not</source>
        <translation>chaque activation, entrée et temporaire de passe avant ou arrière suit la taille du lot, de même que la demande qui échoue&#x202f;; les paramètres, les gradients et l&apos;état de l&apos;optimiseur non</translation>
    </message>
    <message>
        <source>every activation, input and forward or backward temporary scales with the batch; parameters, gradients and optimizer state do not</source>
        <translation>chaque activation, entrée et temporaire de passe avant ou arrière suit la taille du lot&#x202f;; les paramètres, les gradients et l&apos;état de l&apos;optimiseur non</translation>
    </message>
    <message>
        <source>a batch (or sequence) {fraction} as large</source>
        <translation>un lot (ou une séquence) {fraction} aussi grand</translation>
    </message>
    <message>
        <source>An 8-bit optimizer was not tried: no optimizer state is held at this moment.</source>
        <translation>Un optimiseur 8 bits n&apos;a pas été essayé&#x202f;: aucun état d&apos;optimiseur n&apos;est tenu à ce moment.</translation>
    </message>
    <message>
        <source>an 8-bit optimizer (bitsandbytes&apos; Adam8bit): its state a quarter of fp32 Adam&apos;s</source>
        <translation>un optimiseur 8 bits (Adam8bit de bitsandbytes)&#x202f;: son état un quart de celui d&apos;Adam fp32</translation>
    </message>
    <message>
        <source>every optimizer state block (exp_avg, exp_avg_sq, momentum) takes one byte per value instead of four</source>
        <translation>chaque bloc d&apos;état de l&apos;optimiseur (exp_avg, exp_avg_sq, momentum) prend un octet par valeur au lieu de quatre</translation>
    </message>
    <message>
        <source>Sharding was not tried: no parameter, gradient or optimizer state recorded being made is held.</source>
        <translation>Le sharding n&apos;a pas été essayé&#x202f;: aucun paramètre, gradient ou état d&apos;optimiseur dont la création a été enregistrée n&apos;est tenu.</translation>
    </message>
    <message>
        <source>asked for</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>the file&apos;s devices</source>
        <translation>les périphériques du fichier</translation>
    </message>
    <message>
        <source>the smallest sharding</source>
        <translation>le plus petit sharding</translation>
    </message>
    <message>
        <source>shard parameters, gradients and optimizer state over {n} GPUs (FSDP or DeepSpeed ZeRO-3)</source>
        <translation>répartir paramètres, gradients et état de l&apos;optimiseur sur {n} GPU (FSDP ou DeepSpeed ZeRO-3)</translation>
    </message>
    <message>
        <source>each GPU keeps {share} of them ({n}: {told}); the parameters gathered for the layer that runs and the communication buffers are not added; blocks from before recording are left whole</source>
        <translation>chaque GPU en garde {share} ({n}&#x202f;: {told})&#x202f;; les paramètres rassemblés pour la couche qui s&apos;exécute et les tampons de communication ne sont pas ajoutés&#x202f;; les blocs d&apos;avant l&apos;enregistrement restent entiers</translation>
    </message>
    <message>
        <source>zero_grad(set_to_none=True) was not tried: the gradients are in use at this moment.</source>
        <translation>zero_grad(set_to_none=True) n&apos;a pas été essayé&#x202f;: les gradients sont utilisés à ce moment.</translation>
    </message>
    <message>
        <source>optimizer.zero_grad(set_to_none=True): the gradients freed after each optimizer step</source>
        <translation>optimizer.zero_grad(set_to_none=True)&#x202f;: les gradients libérés après chaque étape de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>the gradients held since the step before are freed when this stretch begins and made again where the next backward begins; no gradient is accumulated over several forwards</source>
        <translation>les gradients tenus depuis l&apos;étape précédente sont libérés quand cette séquence commence et refaits là où commence la passe arrière suivante&#x202f;; aucun gradient n&apos;est accumulé sur plusieurs passes avant</translation>
    </message>
    <message>
        <source>free what was allocated before recording began (start recording earlier to see what it is)</source>
        <translation>libérer ce qui a été alloué avant le début de l&apos;enregistrement (démarrer l&apos;enregistrement plus tôt pour voir ce que c&apos;est)</translation>
    </message>
    <message>
        <source>none of it is needed: the trace cannot tell what it is; it is given back to the cache as free blocks of the segments that held it</source>
        <translation>rien n&apos;en est nécessaire&#x202f;: la trace ne peut pas dire ce que c&apos;est&#x202f;; c&apos;est rendu au cache en blocs libres des segments qui le tenaient</translation>
    </message>
    <message>
        <source>nothing is replayed differently: before raising an OOM the allocator itself gives back every cached segment without a live block, so the call adds nothing</source>
        <translation>rien n&apos;est rejoué autrement&#x202f;: avant de lever un OOM l&apos;allocateur rend lui-même chaque segment du cache sans bloc vivant, donc l&apos;appel n&apos;ajoute rien</translation>
    </message>
    <message>
        <source>the cached segments with no live block go back to the device, for other processes; this process gains nothing, since the allocator gives them back itself before running out: the replay is the recorded one</source>
        <translation>les segments du cache sans bloc vivant retournent au périphérique, pour d&apos;autres processus&#x202f;; ce processus n&apos;y gagne rien, puisque l&apos;allocateur les rend lui-même avant de manquer de mémoire&#x202f;: le rejeu est celui enregistré</translation>
    </message>
    <message>
        <source>torch.cuda.empty_cache() at this moment (it would return {bytes} to the device)</source>
        <translation>torch.cuda.empty_cache() à ce moment (il rendrait {bytes} au périphérique)</translation>
    </message>
    <message>
        <source>CUBLAS_WORKSPACE_CONFIG=:0:0 (and no cuBLASLt workspace): no library workspace kept</source>
        <translation>CUBLAS_WORKSPACE_CONFIG=:0:0 (et aucun espace de travail cuBLASLt)&#x202f;: aucun espace de travail de bibliothèque gardé</translation>
    </message>
    <message>
        <source>the libraries run without their workspaces (slower matrix products); no other request changes</source>
        <translation>les bibliothèques s&apos;exécutent sans leurs espaces de travail (produits matriciels plus lents)&#x202f;; aucune autre demande ne change</translation>
    </message>
    <message>
        <source>autocast&apos;s fp16/bf16 copies of the weights show they are fp32</source>
        <translation>les copies fp16/bf16 des poids faites par autocast montrent qu&apos;ils sont en fp32</translation>
    </message>
    <message>
        <source>the weights are fp32 (a snapshot records no dtype: if they are already 16-bit, this frees nothing)</source>
        <translation>les poids sont en fp32 (un instantané n&apos;enregistre pas de dtype&#x202f;: s&apos;ils sont déjà en 16 bits, cela ne libère rien)</translation>
    </message>
    <message>
        <source>keep the weights in bf16 (model.to(torch.bfloat16), or FSDP&apos;s mixed precision)</source>
        <translation>garder les poids en bf16 (model.to(torch.bfloat16), ou la précision mixte de FSDP)</translation>
    </message>
    <message>
        <source>{evidence}; weights and gradients take half the bytes and autocast&apos;s weight copies go; the optimizer state and the activations are left as recorded</source>
        <translation>{evidence}&#x202f;; les poids et les gradients prennent moitié moins d&apos;octets et les copies des poids d&apos;autocast disparaissent&#x202f;; l&apos;état de l&apos;optimiseur et les activations restent tels qu&apos;enregistrés</translation>
    </message>
    <message>
        <source>stop keeping references at {site} (it grows by {bytes} a step): e.g. loss.item() instead of the loss, or .detach() before keeping a tensor</source>
        <translation>ne plus garder de références à {site} (il croît de {bytes} par pas)&#x202f;: p. ex. loss.item() au lieu de la loss, ou .detach() avant de garder un tenseur</translation>
    </message>
    <message>
        <source>what this line keeps past its step is not needed after it: each such block is freed at the end of the step that made it</source>
        <translation>ce que cette ligne garde après son pas n&apos;est plus nécessaire ensuite&#x202f;: chaque bloc de ce genre est libéré à la fin du pas qui l&apos;a créé</translation>
    </message>
    <message>
        <source>The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}. The stacks show DataParallel, which replicates the model from one GPU and gathers every output on one device; DistributedDataParallel runs one process per GPU, each with its own share of the batch.</source>
        <translation>Les GPU ne sont pas chargés également&#x202f;: le GPU {device} a atteint {peak} réservés, {n:le GPU|les GPU} {others} {sizes}. Les piles montrent DataParallel, qui réplique le modèle depuis un GPU et rassemble chaque sortie sur un seul périphérique&#x202f;; DistributedDataParallel exécute un processus par GPU, chacun avec sa part du lot.</translation>
    </message>
    <message>
        <source>The GPUs are not evenly loaded: GPU {device} reached {peak} reserved, {n:GPU|GPUs} {others} {sizes}.</source>
        <translation>Les GPU ne sont pas chargés également&#x202f;: le GPU {device} a atteint {peak} réservés, {n:le GPU|les GPU} {others} {sizes}.</translation>
    </message>
    <message>
        <source>DistributedDataParallel instead of DataParallel: each GPU its own share of the batch</source>
        <translation>DistributedDataParallel au lieu de DataParallel&#x202f;: chaque GPU sa propre part du lot</translation>
    </message>
    <message>
        <source>spread the work evenly over the GPUs</source>
        <translation>répartir le travail également entre les GPU</translation>
    </message>
    <message>
        <source>evenly loaded, GPU {device} would hold the devices&apos; mean ({mean}): its activations, inputs and forward or backward temporaries are taken {fraction} as large</source>
        <translation>chargé également, le GPU {device} tiendrait la moyenne des périphériques ({mean})&#x202f;: ses activations, entrées et temporaires de passe avant ou arrière sont pris {fraction} aussi grands</translation>
    </message>
    <message>
        <source>{some} and {last}</source>
        <translation>{some} et {last}</translation>
    </message>
    <message>
        <source>the trace cannot judge this: every segment predates recording (the trace never creates or frees one), and {settings} acts on how segments are made, split or given back</source>
        <translation>la trace ne peut pas en juger&#x202f;: chaque segment précède l&apos;enregistrement (la trace n&apos;en crée ni n&apos;en libère aucun), et {settings} agit sur la façon dont les segments sont créés, découpés ou rendus</translation>
    </message>
    <message>
        <source>the trace cannot judge this: every segment predates recording (the trace never creates or frees one), and {settings} act on how segments are made, split or given back</source>
        <translation>la trace ne peut pas en juger&#x202f;: chaque segment précède l&apos;enregistrement (la trace n&apos;en crée ni n&apos;en libère aucun), et {settings} agissent sur la façon dont les segments sont créés, découpés ou rendus</translation>
    </message>
</context>
<context>
    <name>SnapshotError</name>
    <message>
        <source>a {bits}-bit integer</source>
        <translation>un entier de {bits} bits</translation>
    </message>
    <message>
        <source>is {value}, not an integer</source>
        <translation>est {value}, pas un entier</translation>
    </message>
    <message>
        <source>is {value}, below zero</source>
        <translation>est {value}, sous zéro</translation>
    </message>
    <message>
        <source>is {value}, beyond {limit}</source>
        <translation>est {value}, au-delà de {limit}</translation>
    </message>
    <message>
        <source>is {value}, not a pair of integers</source>
        <translation>est {value}, pas une paire d&apos;entiers</translation>
    </message>
    <message>
        <source>holds a value that {problem}</source>
        <translation>contient une valeur qui {problem}</translation>
    </message>
    <message>
        <source>is {type}, not a dict</source>
        <translation>est {type}, pas un dict</translation>
    </message>
    <message>
        <source>has no {key}</source>
        <translation>n&apos;a pas de {key}</translation>
    </message>
    <message>
        <source>has an {key} that is {value}, not a string</source>
        <translation>a une valeur {key} qui est {value}, pas une chaîne</translation>
    </message>
    <message>
        <source>has a {key} that {problem}</source>
        <translation>a une valeur {key} qui {problem}</translation>
    </message>
    <message>
        <source>ends beyond 2^62 - 1 (&apos;addr&apos; {addr} + &apos;size&apos; {size})</source>
        <translation>finit au-delà de 2^62 - 1 (&apos;addr&apos; {addr} + &apos;size&apos; {size})</translation>
    </message>
    <message>
        <source>has a {key} that is {value}, not a string</source>
        <translation>a une valeur {key} qui est {value}, pas une chaîne</translation>
    </message>
    <message>
        <source>has &apos;frames&apos; that is {value}, not a list</source>
        <translation>a des &apos;frames&apos; qui sont {value}, pas une liste</translation>
    </message>
    <message>
        <source>has a stack frame that is {value}, not a dict</source>
        <translation>a un cadre de pile qui est {value}, pas un dict</translation>
    </message>
    <message>
        <source>is {value}, not a string or a dict</source>
        <translation>est {value}, ni une chaîne ni un dict</translation>
    </message>
    <message>
        <source>is a dict of {n} keys, beyond {limit}</source>
        <translation>est un dict de {n} clés, au-delà de {limit}</translation>
    </message>
    <message>
        <source>is a dict whose keys are not all strings</source>
        <translation>est un dict dont les clés ne sont pas toutes des chaînes</translation>
    </message>
    <message>
        <source>is a dict nested deeper than {limit}</source>
        <translation>est un dict imbriqué sur plus de {limit} niveaux</translation>
    </message>
    <message>
        <source>device {device} trace</source>
        <translation>la trace du périphérique {device}</translation>
    </message>
    <message>
        <source>{where}: entry {i} {problem}</source>
        <translation>{where}&#x202f;: l&apos;entrée {i} {problem}</translation>
    </message>
    <message>
        <source>{where}: an entry cannot be read</source>
        <translation>{where}&#x202f;: une entrée est illisible</translation>
    </message>
    <message>
        <source>segment {i} ends beyond 2^62 - 1 (address {address})</source>
        <translation>le segment {i} finit au-delà de 2^62 - 1 (adresse {address})</translation>
    </message>
    <message>
        <source>segment {i}: a block at {address} ends beyond 2^62 - 1</source>
        <translation>segment {i}&#x202f;: un bloc à {address} finit au-delà de 2^62 - 1</translation>
    </message>
    <message>
        <source>segment {i} ({address}, {size} bytes) has a block outside it ({at}, {bytes} bytes)</source>
        <translation>le segment {i} ({address}, {size} octets) a un bloc hors de lui ({at}, {bytes} octets)</translation>
    </message>
    <message>
        <source>segment {i} has blocks that overlap or are out of order (at {at})</source>
        <translation>le segment {i} a des blocs qui se chevauchent ou sont dans le désordre (à {at})</translation>
    </message>
    <message>
        <source>segments {i} and {j} overlap (at {at} on device {device})</source>
        <translation>les segments {i} et {j} se chevauchent (à {at} sur le périphérique {device})</translation>
    </message>
    <message>
        <source>its sizes add up to about 2^{power} bytes, beyond what any device holds</source>
        <translation>ses tailles totalisent environ 2^{power} octets, au-delà de ce que contient tout périphérique</translation>
    </message>
    <message>
        <source>{where} {key} holds a value that</source>
        <translation>{where} {key} contient une valeur qui</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a table</source>
        <translation>{where} {key} est {value}, pas une table</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a number in 0..1</source>
        <translation>{where} {key} est {value}, pas un nombre dans 0..1</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a string</source>
        <translation>{where} {key} est {value}, pas une chaîne</translation>
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
<context>
    <name>Warnings</name>
    <message>
        <source>event {event}: alloc of {address}, which is already live</source>
        <translation>événement {event}&#x202f;: allocation de {address}, déjà vivant</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} outside every segment</source>
        <translation>événement {event}&#x202f;: allocation de {address} hors de tout segment</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} where no memory is free</source>
        <translation>événement {event}&#x202f;: allocation de {address} là où aucune mémoire n&apos;est libre</translation>
    </message>
    <message>
        <source>event {event}: free_requested of {address}, which is not live</source>
        <translation>événement {event}&#x202f;: free_requested de {address}, qui n&apos;est pas vivant</translation>
    </message>
    <message>
        <source>event {event}: free_completed of {address}, which is not live</source>
        <translation>événement {event}&#x202f;: free_completed de {address}, qui n&apos;est pas vivant</translation>
    </message>
    <message>
        <source>event {event}: segment_alloc of {address} over a live segment</source>
        <translation>événement {event}&#x202f;: segment_alloc de {address} par-dessus un segment vivant</translation>
    </message>
    <message>
        <source>event {event}: segment_free of {address}, which is not a free segment</source>
        <translation>événement {event}&#x202f;: segment_free de {address}, qui n&apos;est pas un segment libre</translation>
    </message>
    <message>
        <source>event {event}: segment_unmap of {address}, which is not free mapped memory</source>
        <translation>événement {event}&#x202f;: segment_unmap de {address}, qui n&apos;est pas de la mémoire mappée libre</translation>
    </message>
    <message>
        <source>block {address} lies in no segment before the first event</source>
        <translation>le bloc {address} n&apos;est dans aucun segment avant le premier événement</translation>
    </message>
    <message>
        <source>event {event}: alloc of {address} is not live afterwards</source>
        <translation>événement {event}&#x202f;: l&apos;allocation de {address} n&apos;est plus vivante ensuite</translation>
    </message>
    <message>
        <source>event {event}: free_completed of {address}, which is live afterwards</source>
        <translation>événement {event}&#x202f;: free_completed de {address}, qui est vivant ensuite</translation>
    </message>
    <message>
        <source>event {event}: segment_map of {address} over a live segment</source>
        <translation>événement {event}&#x202f;: segment_map de {address} par-dessus un segment vivant</translation>
    </message>
    <message>
        <source>event {event}: segment_alloc of {address} is not there afterwards</source>
        <translation>événement {event}&#x202f;: le segment_alloc de {address} n&apos;est plus là ensuite</translation>
    </message>
    <message>
        <source>event {event}: segment_free of {address}, whose memory is a segment afterwards</source>
        <translation>événement {event}&#x202f;: segment_free de {address}, dont la mémoire est un segment ensuite</translation>
    </message>
    <message>
        <source>event {event}: segment_map of {address} is not mapped afterwards</source>
        <translation>événement {event}&#x202f;: le segment_map de {address} n&apos;est plus mappé ensuite</translation>
    </message>
    <message>
        <source>event {event}: segment_unmap of {address}, whose memory is mapped afterwards</source>
        <translation>événement {event}&#x202f;: segment_unmap de {address}, dont la mémoire est mappée ensuite</translation>
    </message>
    <message>
        <source>replay ends with {unlike} blocks unlike the snapshot and {extra} it does not have</source>
        <translation>le rejeu se termine avec {unlike} blocs différents de l&apos;instantané et {extra} qu&apos;il n&apos;a pas</translation>
    </message>
    <message>
        <source>no blocks</source>
        <translation>aucun bloc</translation>
    </message>
    <message>
        <source>blocks that cover {covered} of its {total} bytes</source>
        <translation>des blocs qui couvrent {covered} de ses {total} octets</translation>
    </message>
    <message>
        <source>segment {segment} at {address} has {what}: the rest of it is in no block</source>
        <translation>le segment {segment} à {address} a {what}&#x202f;: le reste n&apos;est dans aucun bloc</translation>
    </message>
    <message>
        <source>{n} more segments whose blocks do not add up to their size</source>
        <translation>{n} segments de plus dont les blocs n&apos;atteignent pas leur taille</translation>
    </message>
    <message>
        <source>... and {n} more</source>
        <translation>... et {n} de plus</translation>
    </message>
</context>
</TS>
