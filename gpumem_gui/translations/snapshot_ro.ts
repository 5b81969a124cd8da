<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
<context>
    <name>BlockPage</name>
    <message>
        <source>{segment}: {size}, {blocks} {blocks:block|blocks},</source>
        <translation>{segment}: {size}, {blocks} {blocks:bloc|blocuri|de blocuri},</translation>
    </message>
    <message>
        <source>free {free}, largest hole {largest}</source>
        <translation>liber {free}, cel mai mare gol {largest}</translation>
    </message>
    <message>
        <source>segment</source>
        <translation>segment</translation>
    </message>
    <message>
        <source>category</source>
        <translation>categorie</translation>
    </message>
    <message>
        <source>no stack</source>
        <translation>fără stivă</translation>
    </message>
    <message>
        <source>user metadata</source>
        <translation>metadate ale utilizatorului</translation>
    </message>
    <message>
        <source>annotation</source>
        <translation>adnotare</translation>
    </message>
    <message>
        <source>{what}: {why}</source>
        <translation>{what}: {why}</translation>
    </message>
    <message>
        <source>Click a block for details.</source>
        <translation>Faceți clic pe un bloc pentru detalii.</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>stivă</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
</context>
<context>
    <name>Breakdown</name>
    <message>
        <source>small</source>
        <translation>mic</translation>
    </message>
    <message>
        <source>large</source>
        <translation>mare</translation>
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
        <translation>adresă</translation>
    </message>
    <message>
        <source>size</source>
        <translation>mărime</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>state</source>
        <translation>stare</translation>
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
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>time</source>
        <translation>timp</translation>
    </message>
    <message>
        <source>action</source>
        <translation>acțiune</translation>
    </message>
</context>
<context>
    <name>DeviceMenu</name>
    <message>
        <source>GPU {device}: nothing reserved</source>
        <translation>GPU {device}: nimic rezervat</translation>
    </message>
    <message>
        <source>GPU {device}: peak {peak}</source>
        <translation>GPU {device}: vârf {peak}</translation>
    </message>
</context>
<context>
    <name>EventInspector</name>
    <message>
        <source>action</source>
        <translation>acțiune</translation>
    </message>
    <message>
        <source>address</source>
        <translation>adresă</translation>
    </message>
    <message>
        <source>size</source>
        <translation>mărime</translation>
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
        <translation>timp</translation>
    </message>
    <message>
        <source>device free</source>
        <translation>liber pe dispozitiv</translation>
    </message>
    <message>
        <source>compile context</source>
        <translation>context de compilare</translation>
    </message>
    <message>
        <source>user metadata</source>
        <translation>metadate ale utilizatorului</translation>
    </message>
    <message>
        <source>FX node</source>
        <translation>nod FX</translation>
    </message>
    <message>
        <source>(an OOM has no address)</source>
        <translation>(un OOM nu are adresă)</translation>
    </message>
    <message>
        <source> (the default stream)</source>
        <translation> (stream-ul implicit)</translation>
    </message>
    <message>
        <source> (this trace has no times)</source>
        <translation> (această înregistrare nu are timpi)</translation>
    </message>
    <message>
        <source> (not known until the trace is indexed)</source>
        <translation> (necunoscut până la indexarea jurnalului de evenimente)</translation>
    </message>
    <message>
        <source>{size}, as requested</source>
        <translation>{size}, cât s-a cerut</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>octeți</translation>
    </message>
    <message>
        <source>{size}: {more} more than requested</source>
        <translation>{size}: cu {more} mai mult decât s-a cerut</translation>
    </message>
    <message>
        <source>{elapsed} after the trace&apos;s first event</source>
        <translation>{elapsed} după primul eveniment din jurnal</translation>
    </message>
    <message>
        <source>no event: before the first one, or the file has no trace</source>
        <translation>niciun eveniment: înainte de primul sau fișierul nu are jurnal de evenimente</translation>
    </message>
    <message>
        <source>no event yet: the trace is still being read</source>
        <translation>niciun eveniment încă: jurnalul de evenimente este încă citit</translation>
    </message>
    <message>
        <source>event {event} of {events}: {what}</source>
        <translation>evenimentul {event} din {events}: {what}</translation>
    </message>
    <message>
        <source>event {event}: {what}</source>
        <translation>evenimentul {event}: {what}</translation>
    </message>
    <message>
        <source>{action} in the trace</source>
        <translation>{action} în jurnalul de evenimente</translation>
    </message>
    <message>
        <source>{clock} ({us} µs since the epoch)</source>
        <translation>{clock} ({us} µs de la epoca Unix)</translation>
    </message>
    <message>
        <source>(no forward stack: not a backward allocation)</source>
        <translation>(fără stiva trecerii înainte: nu este o alocare din trecerea înapoi)</translation>
    </message>
</context>
<context>
    <name>EventListView</name>
    <message>
        <source>all events</source>
        <translation>toate evenimentele</translation>
    </message>
    <message>
        <source>allocations</source>
        <translation>alocări</translation>
    </message>
    <message>
        <source>frees</source>
        <translation>eliberări</translation>
    </message>
    <message>
        <source>cudaMalloc/cudaFree (segments)</source>
        <translation>cudaMalloc/cudaFree (segmente)</translation>
    </message>
    <message>
        <source>segment map/unmap</source>
        <translation>mapare/demapare de segment</translation>
    </message>
    <message>
        <source>OOMs</source>
        <translation>OOM-uri</translation>
    </message>
    <message>
        <source>snapshots and annotations</source>
        <translation>instantanee și adnotări</translation>
    </message>
    <message>
        <source>{size}; block {block}</source>
        <translation>{size}; bloc {block}</translation>
    </message>
    <message>
        <source>e.g. 64MiB</source>
        <translation>ex. 64MiB</translation>
    </message>
    <message>
        <source>Only events of at least this size: 64MiB, 1.5 GiB, 1000000 (bytes)</source>
        <translation>Doar evenimentele de cel puțin această mărime: 64MiB, 1,5&#xa0;GiB, 1000000 (octeți)</translation>
    </message>
    <message>
        <source>size ≥</source>
        <translation>mărime ≥</translation>
    </message>
    <message>
        <source>all streams</source>
        <translation>toate stream-urile</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>size? try 64MiB, 1.5 GiB, 1000000</source>
        <translation>mărime? încercați 64MiB, 1,5&#xa0;GiB, 1000000</translation>
    </message>
    <message>
        <source>{shown} of {total} {total:event|events}</source>
        <translation>{shown} din {total} {total:eveniment|evenimente|de evenimente}</translation>
    </message>
</context>
<context>
    <name>EventWords</name>
    <message>
        <source>allocation</source>
        <translation>alocare</translation>
    </message>
    <message>
        <source>free requested</source>
        <translation>eliberare cerută</translation>
    </message>
    <message>
        <source>free completed</source>
        <translation>eliberare încheiată</translation>
    </message>
    <message>
        <source>segment alloc (cudaMalloc)</source>
        <translation>alocare de segment (cudaMalloc)</translation>
    </message>
    <message>
        <source>segment free (cudaFree)</source>
        <translation>eliberare de segment (cudaFree)</translation>
    </message>
    <message>
        <source>segment map</source>
        <translation>mapare de segment</translation>
    </message>
    <message>
        <source>segment unmap</source>
        <translation>demapare de segment</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>instantaneu</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>annotation (user_defined)</source>
        <translation>adnotare (user_defined)</translation>
    </message>
    <message>
        <source>annotation</source>
        <translation>adnotare</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>necunoscut</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>segment</source>
        <translation>segment</translation>
    </message>
    <message>
        <source>mapped range</source>
        <translation>interval mapat</translation>
    </message>
    <message>
        <source>unmapped range</source>
        <translation>interval demapat</translation>
    </message>
    <message>
        <source>active bytes then</source>
        <translation>octeți activi atunci</translation>
    </message>
    <message>
        <source>request (rounded)</source>
        <translation>cerere (rotunjită)</translation>
    </message>
    <message>
        <source>size</source>
        <translation>mărime</translation>
    </message>
</context>
<context>
    <name>FiguresPanel</name>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>Memory the caching allocator holds from CUDA (what nvidia-smi counts for PyTorch).</source>
        <translation>Memoria pe care alocatorul cu cache o ține de la CUDA (cât numără nvidia-smi pentru PyTorch).</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>Memory in live tensors&apos; blocks (torch.cuda.memory_allocated).</source>
        <translation>Memoria din blocurile tensorilor activi (torch.cuda.memory_allocated).</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>What the program asked for; below allocated by the 512-byte rounding.</source>
        <translation>Cât a cerut programul; sub cel alocat cu rotunjirea la 512&#xa0;octeți.</translation>
    </message>
    <message>
        <source>rounding waste</source>
        <translation>pierdere la rotunjire</translation>
    </message>
    <message>
        <source>allocated - requested: lost inside blocks to rounding and unsplit remainders.</source>
        <translation>alocat - cerut: pierdut în blocuri prin rotunjire și resturi nedivizate.</translation>
    </message>
    <message>
        <source>pending free</source>
        <translation>eliberare în așteptare</translation>
    </message>
    <message>
        <source>Freed, but still used by another stream (record_stream): free once it syncs.</source>
        <translation>Eliberat, dar încă folosit de alt stream (record_stream): liber după sincronizare.</translation>
    </message>
    <message>
        <source>cached free</source>
        <translation>liber în cache</translation>
    </message>
    <message>
        <source>Reserved but unused: the holes. Large and useless? torch.cuda.empty_cache() returns whole free segments.</source>
        <translation>Rezervat, dar nefolosit: golurile. Mare și inutil? torch.cuda.empty_cache() returnează segmentele libere întregi.</translation>
    </message>
    <message>
        <source>largest hole</source>
        <translation>cel mai mare gol</translation>
    </message>
    <message>
        <source>The biggest request the holes can serve at once; larger ones need a new cudaMalloc.</source>
        <translation>Cea mai mare cerere pe care golurile o pot servi deodată; cele mai mari au nevoie de un nou cudaMalloc.</translation>
    </message>
    <message>
        <source>fragmentation</source>
        <translation>fragmentare</translation>
    </message>
    <message>
        <source>1 - largest hole / free. High with much free memory: try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.</source>
        <translation>1 - cel mai mare gol / liber. Mare, cu multă memorie liberă: încercați PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.</translation>
    </message>
    <message>
        <source>inactive split</source>
        <translation>divizat inactiv</translation>
    </message>
    <message>
        <source>Free blocks inside segments that also hold live blocks: empty_cache cannot release them.</source>
        <translation>Blocuri libere în segmente care țin și blocuri active: empty_cache nu le poate elibera.</translation>
    </message>
    <message>
        <source>largest that fits</source>
        <translation>cea mai mare care încape</translation>
    </message>
    <message>
        <source>The largest allocation the cache can serve now, following the allocator&apos;s pool and split rules.</source>
        <translation>Cea mai mare alocare pe care cache-ul o poate servi acum, după regulile de pool și de divizare ale alocatorului.</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segmente</translation>
    </message>
    <message>
        <source>cudaMalloc&apos;ed segments (or mapped runs of expandable segments).</source>
        <translation>Segmente obținute prin cudaMalloc (sau porțiuni mapate ale segmentelor extensibile).</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocuri</translation>
    </message>
    <message>
        <source>Blocks of all states in those segments.</source>
        <translation>Blocuri în toate stările, în aceste segmente.</translation>
    </message>
    <message>
        <source>{share} of reserved</source>
        <translation>{share} din rezervat</translation>
    </message>
    <message>
        <source>{share} of allocated</source>
        <translation>{share} din alocat</translation>
    </message>
    <message>
        <source>{share} of free</source>
        <translation>{share} din liber</translation>
    </message>
    <message>
        <source>oom requested</source>
        <translation>cerut la OOM</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>cel mai mare bloc liber</translation>
    </message>
    <message>
        <source>device free</source>
        <translation>liber pe dispozitiv</translation>
    </message>
    <message>
        <source>external fragmentation</source>
        <translation>fragmentare externă</translation>
    </message>
    <message>
        <source>upcoming requests</source>
        <translation>cereri următoare</translation>
    </message>
    <message>
        <source>upcoming max</source>
        <translation>maximul următor</translation>
    </message>
    <message>
        <source>holes taking largest</source>
        <translation>goluri care o pot lua pe cea mai mare</translation>
    </message>
    <message>
        <source>unusable free</source>
        <translation>liber inutilizabil</translation>
    </message>
    <message>
        <source>free</source>
        <translation>liber</translation>
    </message>
    <message>
        <source>requests fitting no hole</source>
        <translation>cereri care nu încap în niciun gol</translation>
    </message>
    <message>
        <source>note</source>
        <translation>notă</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>avertisment</translation>
    </message>
    <message>
        <source>alert</source>
        <translation>alertă</translation>
    </message>
    <message>
        <source>{severity}: {figures}</source>
        <translation>{severity}: {figures}</translation>
    </message>
</context>
<context>
    <name>FileNotes</name>
    <message>
        <source>the OOM (event {event} of {events})</source>
        <translation>OOM-ul (evenimentul {event} din {events})</translation>
    </message>
    <message>
        <source>the first of {count} OOMs (event {event} of {events})</source>
        <translation>primul din {count} OOM-uri (evenimentul {event} din {events})</translation>
    </message>
    <message>
        <source>the peak of allocated memory, {peak} (event {event} of {events})</source>
        <translation>vârful memoriei alocate, {peak} (evenimentul {event} din {events})</translation>
    </message>
    <message>
        <source>GPU {device} holds nothing in this file; memory is on {gpus}</source>
        <translation>GPU {device} nu ține nimic în acest fișier; memoria este pe {gpus}</translation>
    </message>
    <message>
        <source>GPU {device} holds nothing in this file</source>
        <translation>GPU {device} nu ține nimic în acest fișier</translation>
    </message>
    <message>
        <source>{n} notes on this file: {first} (all of them in the tooltip)</source>
        <translation>{n} note despre acest fișier: {first} (toate în indicație)</translation>
    </message>
    <message>
        <source>1 note on this file: {first}</source>
        <translation>1 notă despre acest fișier: {first}</translation>
    </message>
    <message>
        <source>Opened at {where}, the final state.</source>
        <translation>Deschis la {where}, starea finală.</translation>
    </message>
    <message>
        <source>Opened at {where}; {end} shows the final state.</source>
        <translation>Deschis la {where}; {end} arată starea finală.</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Sfârșitul</translation>
    </message>
</context>
<context>
    <name>Flame</name>
    <message>
        <source>{cost}: {total}</source>
        <translation>{cost}: {total}</translation>
    </message>
    <message>
        <source>{n} {n:allocation|allocations}</source>
        <translation>{n} {n:alocare|alocări|de alocări}</translation>
    </message>
    <message>
        <source>; &apos;{search}&apos; matches {share} of the cost</source>
        <translation>; „{search}” acoperă {share} din cost</translation>
    </message>
    <message>
        <source>bytes live at the cursor</source>
        <translation>octeți activi la cursor</translation>
    </message>
    <message>
        <source>bytes live at the peak</source>
        <translation>octeți activi la vârf</translation>
    </message>
    <message>
        <source>bytes allocated in the span and still alive at its end</source>
        <translation>octeți alocați în interval și încă activi la sfârșitul lui</translation>
    </message>
    <message>
        <source>bytes allocated and freed inside the span</source>
        <translation>octeți alocați și eliberați în interval</translation>
    </message>
    <message>
        <source>allocations in the span</source>
        <translation>alocări în interval</translation>
    </message>
    <message>
        <source>inverted</source>
        <translation>inversat</translation>
    </message>
    <message>
        <source>the allocating line at the root, its callers above it</source>
        <translation>linia care alocă la rădăcină, apelanții ei deasupra</translation>
    </message>
    <message>
        <source>root below</source>
        <translation>rădăcina jos</translation>
    </message>
    <message>
        <source>a flame graph (the root at the bottom) rather than an icicle</source>
        <translation>un grafic flacără (rădăcina jos) în loc de unul țurțure</translation>
    </message>
    <message>
        <source>search frames</source>
        <translation>căutați în cadre</translation>
    </message>
    <message>
        <source>computing the flame graph...</source>
        <translation>se calculează graficul flacără...</translation>
    </message>
    <message>
        <source>no flame graph while the trace is read</source>
        <translation>niciun grafic flacără cât timp jurnalul de evenimente este citit</translation>
    </message>
    <message>
        <source>{name}: its blocks</source>
        <translation>{name}: blocurile sale</translation>
    </message>
    <message>
        <source>all</source>
        <translation>tot</translation>
    </message>
</context>
<context>
    <name>Frameless</name>
    <message>
        <source>free space of its segment: the allocator keeps it reserved for its pool, and no allocation, so no stack, is in it</source>
        <translation>spațiu liber al segmentului său: alocatorul îl păstrează rezervat pentru pool-ul său și nicio alocare, deci nicio stivă, nu se află în el</translation>
    </message>
    <message>
        <source>allocated before recording began (or its alloc entry fell out of the trace&apos;s ring buffer, max_entries): the snapshot lists it without the stack it was made with</source>
        <translation>alocat înainte de începutul înregistrării (sau intrarea sa de alocare a ieșit din bufferul circular al jurnalului, max_entries): instantaneul îl listează fără stiva cu care a fost creat</translation>
    </message>
    <message>
        <source>recorded without context: no entry of this trace carries frames (_record_memory_history(context=None), or context=&apos;state&apos;, which keeps stacks only on blocks still live when the snapshot was taken)</source>
        <translation>înregistrat fără context: nicio intrare a acestui jurnal nu are cadre (_record_memory_history(context=None), sau context=&apos;state&apos;, care păstrează stivele doar pentru blocurile încă active când a fost luat instantaneul)</translation>
    </message>
    <message>
        <source>allocated in backward on the autograd engine&apos;s thread, which runs no Python: stacks=&apos;python&apos; records no frame there, stacks=&apos;all&apos; records its C++ frames</source>
        <translation>alocat în trecerea înapoi pe firul motorului autograd, care nu rulează Python: stacks=&apos;python&apos; nu înregistrează acolo niciun cadru, stacks=&apos;all&apos; îi înregistrează cadrele C++</translation>
    </message>
    <message>
        <source>allocated while recording, with frames on other entries but none on this one: the allocator or a C++ library made it outside any recorded call (a copy or workspace of its own)</source>
        <translation>alocat în timpul înregistrării, cu cadre pe alte intrări, dar niciunul pe aceasta: alocatorul sau o bibliotecă C++ l-a creat în afara oricărui apel înregistrat (o copie sau un spațiu de lucru propriu)</translation>
    </message>
</context>
<context>
    <name>GapBar</name>
    <message>
        <source>reserved {reserved}
allocated {allocated}
gap {gap}</source>
        <translation>rezervat {reserved}
alocat {allocated}
diferență {gap}</translation>
    </message>
    <message>
        <source>allocated {size}</source>
        <translation>alocat {size}</translation>
    </message>
    <message>
        <source>reserved {size}</source>
        <translation>rezervat {size}</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>{newest} to {oldest}</source>
        <translation>{newest}–{oldest}</translation>
    </message>
    <message>
        <source>alive before recording began</source>
        <translation>activ dinainte de începutul înregistrării</translation>
    </message>
    <message>
        <source>{low} events ago</source>
        <translation>acum {low} {low:eveniment|evenimente|de evenimente}</translation>
    </message>
    <message>
        <source>{low} to {high} events ago</source>
        <translation>acum {low}–{high} {high:eveniment|evenimente|de evenimente}</translation>
    </message>
    <message>
        <source>allocated, by age:</source>
        <translation>alocat, după vârstă:</translation>
    </message>
</context>
<context>
    <name>PartialCurvesView</name>
    <message>
        <source>change ({0})</source>
        <translation>variație ({0})</translation>
    </message>
    <message>
        <source>Reading the trace: reserved and allocated memory over the first {0} events, as the change since the first event (what was held before it is known once the whole trace is read)</source>
        <translation>Se citește istoricul: memoria rezervată și cea alocată pe primele {0} evenimente, ca variație față de primul eveniment (ce era ocupat înainte se știe după citirea întregului istoric)</translation>
    </message>
</context>
<context>
    <name>PinnedTracks</name>
    <message>
        <source>unpin this track</source>
        <translation>desprindeți această pistă</translation>
    </message>
    <message>
        <source>{kind}: {label}, peak {peak}</source>
        <translation>{kind}: {label}, vârf {peak}</translation>
    </message>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>categorie</translation>
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
        <translation>metadate</translation>
    </message>
    <message>
        <source>search</source>
        <translation>căutare</translation>
    </message>
    <message>
        <source>Pin band</source>
        <translation>Fixați banda</translation>
    </message>
    <message>
        <source>pin the site, category, stream or pool last picked on &apos;allocated by site&apos;</source>
        <translation>fixați locul de apel, categoria, stream-ul sau pool-ul ales ultima dată în „alocat pe loc de apel”</translation>
    </message>
    <message>
        <source>Pin search</source>
        <translation>Fixați căutarea</translation>
    </message>
    <message>
        <source>pin the blocks whose stack holds the text typed here</source>
        <translation>fixați blocurile a căror stivă conține textul scris aici</translation>
    </message>
    <message>
        <source>text in a frame, e.g. x.py:160</source>
        <translation>text dintr-un cadru, ex. x.py:160</translation>
    </message>
    <message>
        <source>pin {kind} {label}</source>
        <translation>fixați {kind} {label}</translation>
    </message>
</context>
<context>
    <name>PoolEnvelope</name>
    <message>
        <source>default pool</source>
        <translation>pool implicit</translation>
    </message>
    <message>
        <source>private pool {pool}</source>
        <translation>pool privat {pool}</translation>
    </message>
    <message>
        <source>Memory by pool</source>
        <translation>Memoria pe pool</translation>
    </message>
    <message>
        <source>Each pool&apos;s reserved memory is a grey envelope with its allocated memory inside</source>
        <translation>Memoria rezervată a fiecărui pool este un contur gri, cu memoria sa alocată înăuntru</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>memorie ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>eveniment din jurnal</translation>
    </message>
    <message>
        <source>{pool}: peak {peak} reserved</source>
        <translation>{pool}: vârf {peak} rezervat</translation>
    </message>
    <message>
        <source> (no private pool in this trace)</source>
        <translation> (niciun pool privat în această înregistrare)</translation>
    </message>
    <message>
        <source>before the first event</source>
        <translation>înainte de primul eveniment</translation>
    </message>
    <message>
        <source>after event {event}</source>
        <translation>după evenimentul {event}</translation>
    </message>
    <message>
        <source>{pool}: {reserved} reserved, {allocated} allocated</source>
        <translation>{pool}: {reserved} rezervat, {allocated} alocat</translation>
    </message>
</context>
<context>
    <name>SegmentMap</name>
    <message>
        <source>small pool</source>
        <translation>pool mic</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>pool mare</translation>
    </message>
    <message>
        <source>private pool ({a}, {b}), small</source>
        <translation>pool privat ({a}, {b}), mic</translation>
    </message>
    <message>
        <source>private pool ({a}, {b}), large</source>
        <translation>pool privat ({a}, {b}), mare</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>share of each segment (each row is stretched to its segment: widths are not to scale)</source>
        <translation>parte din fiecare segment (fiecare rând este întins pe segmentul său: lățimile nu sunt la scară)</translation>
    </message>
    <message>
        <source>bytes from the row&apos;s start (a row is {size})</source>
        <translation>octeți de la începutul rândului (un rând are {size})</translation>
    </message>
    <message>
        <source>bytes from the segment&apos;s start (to scale: a full row is {size})</source>
        <translation>octeți de la începutul segmentului (la scară: un rând întreg are {size})</translation>
    </message>
    <message>
        <source>{n} {n:segment|segments}: zoom in to label</source>
        <translation>{n} {n:segment|segmente|de segmente}: măriți pentru etichete</translation>
    </message>
    <message>
        <source>no segment here</source>
        <translation>niciun segment aici</translation>
    </message>
    <message>
        <source>a free block: no stack</source>
        <translation>un bloc liber: fără stivă</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
    <message>
        <source>size {size}</source>
        <translation>mărime {size}</translation>
    </message>
    <message>
        <source>requested {size}</source>
        <translation>cerut {size}</translation>
    </message>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
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
        <translation>creat</translation>
    </message>
    <message>
        <source>grown</source>
        <translation>crescut</translation>
    </message>
    <message>
        <source>freed</source>
        <translation>eliberat</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>vârf</translation>
    </message>
    <message>
        <source>expandable, small pool</source>
        <translation>extensibil, pool mic</translation>
    </message>
    <message>
        <source>expandable, large pool</source>
        <translation>extensibil, pool mare</translation>
    </message>
    <message>
        <source>small pool</source>
        <translation>pool mic</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>pool mare</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>înainte de înregistrare</translation>
    </message>
    <message>
        <source>at event {created}</source>
        <translation>la evenimentul {created}</translation>
    </message>
    <message>
        <source>still cached at the end</source>
        <translation>încă în cache la sfârșit</translation>
    </message>
    <message>
        <source>freed at event {freed}</source>
        <translation>eliberat la evenimentul {freed}</translation>
    </message>
    <message>
        <source>grown {grown} {grown:time|times}</source>
        <translation>crescut de {grown} {grown:dată|ori|de ori}</translation>
    </message>
    <message>
        <source>, shrunk {shrunk} {shrunk:time|times}</source>
        <translation>, micșorat de {shrunk} {shrunk:dată|ori|de ori}</translation>
    </message>
    <message>
        <source>created {made}, {changes}, {went}; peak {peak}</source>
        <translation>creat {made}, {changes}, {went}; vârf {peak}</translation>
    </message>
    <message>
        <source>segment {address} ({kind}, stream {stream})</source>
        <translation>segmentul {address} ({kind}, stream {stream})</translation>
    </message>
    <message>
        <source>Cached segments, stacked in order of creation</source>
        <translation>Segmente în cache, stivuite în ordinea creării</translation>
    </message>
    <message>
        <source>reserved ({unit})</source>
        <translation>rezervat ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>eveniment din jurnal</translation>
    </message>
    <message>
        <source>{lives} segment lives: {grown} grew, {freed} freed</source>
        <translation>{lives} vieți de segment: {grown} au crescut, {freed} eliberate</translation>
    </message>
    <message>
        <source>; the {small} smallest share the grey band</source>
        <translation>; cele mai mici {small} împart banda gri</translation>
    </message>
    <message>
        <source>; an expandable one is its whole virtual range</source>
        <translation>; unul extensibil este întregul său interval virtual</translation>
    </message>
    <message>
        <source>An expandable segment is one virtual address range, mapped and unmapped page by page: one life here, while the map shows each mapped run of it as a segment.</source>
        <translation>Un segment extensibil este un singur interval de adrese virtuale, mapat și demapat pagină cu pagină: o singură viață aici, în timp ce harta arată fiecare porțiune mapată a sa ca un segment.</translation>
    </message>
    <message>
        <source>before</source>
        <translation>înainte</translation>
    </message>
    <message>
        <source>the {small} smallest segments</source>
        <translation>cele mai mici {small} segmente</translation>
    </message>
    <message>
        <source>{size} here; {when}</source>
        <translation>{size} aici; {when}</translation>
    </message>
    <message>
        <source>The smallest segments, in one band: the table lists each.</source>
        <translation>Cele mai mici segmente, într-o singură bandă: tabelul le enumeră pe fiecare.</translation>
    </message>
    <message>
        <source>the stack that made it</source>
        <translation>stiva care l-a creat</translation>
    </message>
    <message>
        <source>no stack recorded for its first allocation</source>
        <translation>nicio stivă înregistrată pentru prima sa alocare</translation>
    </message>
    <message>
        <source>Hover over a segment for its stack; click to pin it.</source>
        <translation>Treceți peste un segment pentru stiva sa; faceți clic pentru a o fixa.</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>This file recorded no allocator settings (PyTorch wrote them from 2.3 on): the values below are PyTorch&apos;s defaults, assumed; the run may have used others.</source>
        <translation>Acest fișier nu a înregistrat setările alocatorului (PyTorch le scrie începând cu versiunea 2.3): valorile de mai jos sunt cele implicite ale PyTorch, presupuse; rularea poate să fi folosit altele.</translation>
    </message>
    <message>
        <source>not a field of the dialog</source>
        <translation>nu este un câmp al dialogului</translation>
    </message>
    <message>
        <source>host memory: no block on the GPU changes</source>
        <translation>memoria gazdei: niciun bloc de pe GPU nu se schimbă</translation>
    </message>
    <message>
        <source>The environment variable the process started with; every key below that it names takes its value from it.</source>
        <translation>Variabila de mediu cu care a pornit procesul; fiecare cheie de mai jos pe care o numește își ia valoarea din ea.</translation>
    </message>
    <message>
        <source>the replay runs under the recorded string with the what-if items put over it</source>
        <translation>rejucarea pornește de la șirul înregistrat, cu elementele din Ce-ar fi dacă... puse peste el</translation>
    </message>
    <message>
        <source>True: each stream&apos;s segments are one virtual address range whose pages are mapped as it grows and unmapped when emptied, so freed memory next to live blocks can serve larger requests (less fragmentation). False: every segment is a fixed cudaMalloc.</source>
        <translation>True: segmentele fiecărui stream sunt un singur interval de adrese virtuale ale cărui pagini sunt mapate pe măsură ce crește și demapate când se golesc, astfel încât memoria eliberată de lângă blocurile active poate servi cereri mai mari (mai puțină fragmentare). False: fiecare segment este un cudaMalloc fix.</translation>
    </message>
    <message>
        <source>Cached blocks larger than this are never split to serve a smaller request, and requests larger than it get a block of (about) their own size: big free blocks are kept whole for big requests.</source>
        <translation>Blocurile din cache mai mari decât această valoare nu sunt niciodată împărțite pentru a servi o cerere mai mică, iar cererile mai mari decât ea primesc un bloc de (aproximativ) propria lor dimensiune: blocurile libere mari sunt păstrate întregi pentru cererile mari.</translation>
    </message>
    <message>
        <source>When reserved memory passes this fraction of the memory allowed (per_process_memory_fraction), cached blocks unused the longest are released before asking cudaMalloc for more.</source>
        <translation>Când memoria rezervată depășește această fracțiune din memoria permisă (per_process_memory_fraction), blocurile din cache nefolosite de cel mai mult timp sunt eliberate înainte de a cere mai multă memorie de la cudaMalloc.</translation>
    </message>
    <message>
        <source>Requests are rounded up to one of N sizes between two powers of two (per size range) rather than to a multiple of 512 bytes: fewer distinct sizes, so freed blocks fit later requests more often.</source>
        <translation>Cererile sunt rotunjite în sus la una dintre N dimensiuni între două puteri ale lui doi (pe interval de dimensiuni), nu la un multiplu de 512&#xa0;octeți: mai puține dimensiuni distincte, deci blocurile eliberate se potrivesc mai des cererilor ulterioare.</translation>
    </message>
    <message>
        <source>The segment a large-pool request below 10 MiB gets (one block of it serves the request, the rest is cached for more).</source>
        <translation>Segmentul pe care îl primește o cerere din pool-ul mare sub 10&#xa0;MiB (un bloc din el servește cererea, restul este păstrat în cache pentru altele).</translation>
    </message>
    <message>
        <source>A request above max_split_size may take a cached block up to this much larger (the rest wasted) rather than a new segment.</source>
        <translation>O cerere peste max_split_size poate lua un bloc din cache mai mare decât ea cu cel mult atât (restul irosit) în loc de un segment nou.</translation>
    </message>
    <message>
        <source>Caps this process&apos;s reserved memory at this fraction of the device: above it the allocator frees its cache or raises an out-of-memory error.</source>
        <translation>Limitează memoria rezervată a acestui proces la această fracțiune din GPU: peste ea, alocatorul își eliberează cache-ul sau ridică o eroare de memorie epuizată.</translation>
    </message>
    <message>
        <source>Releases the allocator&apos;s lock while cudaMalloc runs, so that other threads may allocate meanwhile.</source>
        <translation>Eliberează blocarea alocatorului cât timp rulează cudaMalloc, astfel încât alte fire să poată aloca între timp.</translation>
    </message>
    <message>
        <source>timing only: the replay runs one thread</source>
        <translation>schimbă doar durata: rejucarea rulează pe un singur fir</translation>
    </message>
    <message>
        <source>Pinned host memory is malloc&apos;ed and registered with cudaHostRegister rather than made by cudaHostAlloc.</source>
        <translation>Memoria gazdă fixată (pinned) este alocată cu malloc și înregistrată cu cudaHostRegister, nu creată de cudaHostAlloc.</translation>
    </message>
    <message>
        <source>The threads that register pinned host memory when pinned_use_cuda_host_register is set.</source>
        <translation>Firele care înregistrează memoria gazdă fixată când pinned_use_cuda_host_register este setat.</translation>
    </message>
    <message>
        <source>During CUDA graph capture, blocks freed while used by another stream (record_stream) may be reused once the graph shows that stream is done with them.</source>
        <translation>În timpul capturii unui graf CUDA, blocurile eliberate cât timp sunt folosite de alt stream (record_stream) pot fi refolosite odată ce graful arată că acel stream a terminat cu ele.</translation>
    </message>
    <message>
        <source>graph capture: the replay does not capture</source>
        <translation>captura de graf: rejucarea nu capturează</translation>
    </message>
    <message>
        <source>Not described here: a key of a PyTorch newer than this program knows.</source>
        <translation>Nedescrisă aici: o cheie a unui PyTorch mai nou decât cele pe care le cunoaște acest program.</translation>
    </message>
    <message>
        <source>off</source>
        <translation>dezactivat</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>nelimitat</translation>
    </message>
    <message>
        <source>{n} everywhere</source>
        <translation>{n} peste tot</translation>
    </message>
    <message>
        <source>0 (off)</source>
        <translation>0 (dezactivat)</translation>
    </message>
    <message>
        <source>not set (the whole device)</source>
        <translation>nesetat (tot GPU-ul)</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>nesetat</translation>
    </message>
    <message>
        <source>PyTorch would refuse its {conf} ({error}): the keys it alone holds show their defaults.</source>
        <translation>PyTorch ar refuza {conf} al procesului ({error}): cheile pe care doar el le conține își arată valorile implicite.</translation>
    </message>
    <message>
        <source>The what-if settings are not ones PyTorch would take: {error}</source>
        <translation>PyTorch ar refuza setările din Ce-ar fi dacă...: {error}</translation>
    </message>
    <message>
        <source>not recorded; assumed: {default}</source>
        <translation>neînregistrat; presupus: {default}</translation>
    </message>
    <message>
        <source>replayed under &quot;{conf}&quot;</source>
        <translation>rejucat sub &quot;{conf}&quot;</translation>
    </message>
    <message>
        <source>kept as recorded</source>
        <translation>păstrat ca la înregistrare</translation>
    </message>
    <message>
        <source>kept as recorded: {why}</source>
        <translation>păstrat ca la înregistrare: {why}</translation>
    </message>
    <message>
        <source>What if... can change it ({field})</source>
        <translation>Ce-ar fi dacă... îl poate schimba ({field})</translation>
    </message>
    <message>
        <source>{value} (changed)</source>
        <translation>{value} (schimbat)</translation>
    </message>
    <message>
        <source>{value} (as recorded)</source>
        <translation>{value} (ca la înregistrare)</translation>
    </message>
</context>
<context>
    <name>SettingsView</name>
    <message>
        <source>PYTORCH_CUDA_ALLOC_CONF was not set.</source>
        <translation>PYTORCH_CUDA_ALLOC_CONF nu a fost setat.</translation>
    </message>
    <message>
        <source>default:</source>
        <translation>implicit:</translation>
    </message>
    <message>
        <source>what if:</source>
        <translation>ce-ar fi dacă:</translation>
    </message>
</context>
<context>
    <name>SiteTimeline</name>
    <message>
        <source>by allocation site</source>
        <translation>pe loc de alocare</translation>
    </message>
    <message>
        <source>by category</source>
        <translation>pe categorie</translation>
    </message>
    <message>
        <source>by stream</source>
        <translation>pe stream</translation>
    </message>
    <message>
        <source>by pool</source>
        <translation>pe pool</translation>
    </message>
    <message>
        <source>by metadata</source>
        <translation>pe metadate</translation>
    </message>
    <message>
        <source>Click a band for its site, its stack and its bytes.</source>
        <translation>Faceți clic pe o bandă pentru locul de apel, stiva și octeții ei.</translation>
    </message>
    <message>
        <source>allocated ({unit})</source>
        <translation>alocat ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>eveniment din jurnal</translation>
    </message>
    <message>
        <source>band</source>
        <translation>bandă</translation>
    </message>
    <message>
        <source>at cursor</source>
        <translation>la cursor</translation>
    </message>
    <message>
        <source>own peak</source>
        <translation>vârful propriu</translation>
    </message>
    <message>
        <source>Allocated memory</source>
        <translation>Memoria alocată</translation>
    </message>
    <message>
        <source>The bands could not be computed: {message}</source>
        <translation>Benzile nu au putut fi calculate: {message}</translation>
    </message>
    <message>
        <source>computing the bands…</source>
        <translation>se calculează benzile…</translation>
    </message>
    <message>
        <source>{bands} {bands:band|bands} over {events} {events:event|events}</source>
        <translation>{bands} {bands:bandă|benzi|de benzi} pe {events} {events:eveniment|evenimente|de evenimente}</translation>
    </message>
    <message>
        <source>{bytes} bytes, right after event {event}</source>
        <translation>{bytes} octeți, imediat după evenimentul {event}</translation>
    </message>
    <message>
        <source>{bytes} bytes right after event {event}</source>
        <translation>{bytes} octeți imediat după evenimentul {event}</translation>
    </message>
    <message>
        <source>blocks of many stacks: click for the band&apos;s details</source>
        <translation>blocuri cu multe stive: faceți clic pentru detaliile benzii</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>categorie</translation>
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
        <translation>&lt;b&gt;{now}&lt;/b&gt; imediat după evenimentul {event} ({bytes} octeți)&lt;br&gt;vârful său: &lt;b&gt;{peak}&lt;/b&gt; imediat după evenimentul {peak_event}</translation>
    </message>
    <message>
        <source>the stack holding most of its bytes</source>
        <translation>stiva care ține cei mai mulți dintre octeții ei</translation>
    </message>
</context>
<context>
    <name>Sites</name>
    <message>
        <source>no Python frame</source>
        <translation>niciun cadru Python</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>necunoscut</translation>
    </message>
    <message>
        <source>allocated before recording began</source>
        <translation>alocat înainte de începutul înregistrării</translation>
    </message>
    <message>
        <source>backward, node and forward line not recorded</source>
        <translation>trecerea înapoi, nodul și linia din trecerea înainte neînregistrate</translation>
    </message>
    <message>
        <source>accumulating a parameter&apos;s .grad (AccumulateGrad)</source>
        <translation>acumularea gradientului .grad al unui parametru (AccumulateGrad)</translation>
    </message>
    <message>
        <source>backward of an in-place write into a view (CopySlices)</source>
        <translation>trecerea înapoi pentru o scriere pe loc într-o vedere (CopySlices)</translation>
    </message>
    <message>
        <source>summing the gradients of a tensor used more than once (InputBuffer)</source>
        <translation>însumarea gradienților unui tensor folosit de mai multe ori (InputBuffer)</translation>
    </message>
    <message>
        <source>reducing a gradient to its input&apos;s shape (validate_outputs)</source>
        <translation>reducerea unui gradient la forma intrării sale (validate_outputs)</translation>
    </message>
    <message>
        <source>backward of a Python autograd.Function (PyNode)</source>
        <translation>trecerea înapoi pentru o autograd.Function Python (PyNode)</translation>
    </message>
    <message>
        <source>backward of a C++ autograd function (CppNode)</source>
        <translation>trecerea înapoi pentru o funcție autograd C++ (CppNode)</translation>
    </message>
    <message>
        <source>the gradient backward starts from (GraphRoot)</source>
        <translation>gradientul de la care pornește trecerea înapoi (GraphRoot)</translation>
    </message>
    <message>
        <source>forward line not recorded</source>
        <translation>linia din trecerea înainte neînregistrată</translation>
    </message>
    <message>
        <source>backward of {op}</source>
        <translation>trecerea înapoi pentru {op}</translation>
    </message>
    <message>
        <source>other ({n} {n:site|sites})</source>
        <translation>altele ({n} {n:site de apel|site-uri de apel|de site-uri de apel})</translation>
    </message>
    <message>
        <source>unknown (no frames)</source>
        <translation>necunoscut (fără cadre)</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>linia {line}</translation>
    </message>
    <message>
        <source>native code (no Python frame)</source>
        <translation>cod nativ (niciun cadru Python)</translation>
    </message>
</context>
<context>
    <name>SnapshotTab</name>
    <message>
        <source>reading the trace...</source>
        <translation>se citește jurnalul de evenimente...</translation>
    </message>
    <message>
        <source>{label}: its blocks</source>
        <translation>{label}: blocurile sale</translation>
    </message>
    <message>
        <source>site {site}</source>
        <translation>site-ul de apel {site}</translation>
    </message>
</context>
<context>
    <name>Span</name>
    <message>
        <source>events {first} to {last}</source>
        <translation>evenimentele {first} până la {last}</translation>
    </message>
    <message>
        <source>step {k}</source>
        <translation>pasul {k}</translation>
    </message>
</context>
<context>
    <name>SpanMarks</name>
    <message>
        <source>mark {0}</source>
        <translation>reperul {0}</translation>
    </message>
    <message>
        <source>Set mark here</source>
        <translation>Puneți un reper aici</translation>
    </message>
    <message>
        <source>Span from mark to here</source>
        <translation>Interval de la reper până aici</translation>
    </message>
    <message>
        <source>Clear marks and span</source>
        <translation>Ștergeți reperele și intervalul</translation>
    </message>
    <message>
        <source>Span Mar&amp;ks</source>
        <translation>&amp;Repere de interval</translation>
    </message>
    <message>
        <source>Set Mark at Cursor	M</source>
        <translation>Reper la cursor	M</translation>
    </message>
    <message>
        <source>Span From Mark to Cursor	Shift+M</source>
        <translation>Interval de la reper la cursor	Shift+M</translation>
    </message>
    <message>
        <source>Clear Marks and Span	Esc</source>
        <translation>Ștergeți reperele și intervalul	Esc</translation>
    </message>
</context>
<context>
    <name>SpanPanel</name>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>active</source>
        <translation>activ</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segmente</translation>
    </message>
    <message>
        <source>at its start</source>
        <translation>la început</translation>
    </message>
    <message>
        <source>at its end</source>
        <translation>la sfârșit</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>diferență</translation>
    </message>
    <message>
        <source>{title}: {amount}</source>
        <translation>{title}: {amount}</translation>
    </message>
    <message>
        <source>Pick a step or a range, or shift-drag across a timeline to select a span.</source>
        <translation>Alegeți un pas sau un interval ori trageți cu Shift peste o cronologie pentru a selecta un interval.</translation>
    </message>
    <message>
        <source>{bytes} in {blocks} {blocks:block|blocks}</source>
        <translation>{bytes} în {blocks} {blocks:bloc|blocuri|de blocuri}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>niciunul</translation>
    </message>
    <message>
        <source>{n} other {n:site|sites}</source>
        <translation>{n} {n:alt loc de apel|alte locuri de apel|de alte locuri de apel}</translation>
    </message>
    <message>
        <source>from before the first event to after event {end}</source>
        <translation>de dinainte de primul eveniment până după evenimentul {end}</translation>
    </message>
    <message>
        <source>from after event {start} to after event {end}</source>
        <translation>de după evenimentul {start} până după evenimentul {end}</translation>
    </message>
    <message>
        <source>what was allocated at the span&apos;s peak, {peak} right after event {event}</source>
        <translation>ce era alocat la vârful intervalului, {peak} imediat după evenimentul {event}</translation>
    </message>
    <message>
        <source>allocated in the span and still alive at its end</source>
        <translation>alocate în interval și încă active la sfârșitul lui</translation>
    </message>
    <message>
        <source>freed in the span: its temporaries and what it released</source>
        <translation>eliberate în interval: temporarele sale și ce a eliberat</translation>
    </message>
    <message>
        <source>allocated and freed inside the span</source>
        <translation>alocate și eliberate în interval</translation>
    </message>
    <message>
        <source>Left behind</source>
        <translation>Lăsate în urmă</translation>
    </message>
    <message>
        <source>Held the peak</source>
        <translation>Au ținut vârful</translation>
    </message>
    <message>
        <source>Freed</source>
        <translation>Eliberate</translation>
    </message>
    <message>
        <source>Temporaries</source>
        <translation>Temporare</translation>
    </message>
    <message>
        <source>the steps found and the record_function ranges; a span drawn on a timeline</source>
        <translation>pașii găsiți și intervalele record_function; un interval desenat pe o cronologie</translation>
    </message>
    <message>
        <source>Whole trace</source>
        <translation>Tot jurnalul</translation>
    </message>
    <message>
        <source>scope every view to the whole trace again</source>
        <translation>readuceți toate vizualizările la tot jurnalul</translation>
    </message>
    <message>
        <source>whole trace</source>
        <translation>tot jurnalul</translation>
    </message>
    <message>
        <source>computing the span&apos;s report...</source>
        <translation>se calculează raportul intervalului...</translation>
    </message>
    <message>
        <source>{span}: allocated in the span and still alive at its end</source>
        <translation>{span}: alocate în interval și încă active la sfârșitul lui</translation>
    </message>
</context>
<context>
    <name>TabControls</name>
    <message>
        <source>all pools</source>
        <translation>toate pool-urile</translation>
    </message>
    <message>
        <source>small pool</source>
        <translation>pool mic</translation>
    </message>
    <message>
        <source>large pool</source>
        <translation>pool mare</translation>
    </message>
    <message>
        <source>private pools</source>
        <translation>pool-uri private</translation>
    </message>
    <message>
        <source>by site</source>
        <translation>pe loc de apel</translation>
    </message>
    <message>
        <source>by age</source>
        <translation>după vârstă</translation>
    </message>
    <message>
        <source>by address</source>
        <translation>după adresă</translation>
    </message>
    <message>
        <source>by segment, largest first</source>
        <translation>pe segmente, cele mai mari întâi</translation>
    </message>
    <message>
        <source>by segment, most free first</source>
        <translation>pe segmente, cele mai libere întâi</translation>
    </message>
    <message>
        <source>by segment, to scale</source>
        <translation>pe segmente, la scară</translation>
    </message>
    <message>
        <source>by event</source>
        <translation>pe evenimente</translation>
    </message>
    <message>
        <source>by time</source>
        <translation>în timp</translation>
    </message>
    <message>
        <source>indexing the trace...</source>
        <translation>indexarea jurnalului de evenimente...</translation>
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
        <source>after event {event} of {events}</source>
        <translation>după evenimentul {event} din {events}</translation>
    </message>
    <message>
        <source>GPU {device}, {where}</source>
        <translation>GPU {device}, {where}</translation>
    </message>
    <message>
        <source>colour allocated blocks by allocation site, or by how long ago they were made</source>
        <translation>colorați blocurile alocate după locul de alocare sau după cât de demult au fost create</translation>
    </message>
    <message>
        <source>search: stack text, 0x or decimal address, or size range like 1MiB-20MiB</source>
        <translation>căutare: text din stivă, adresă 0x sau zecimală, ori interval de mărimi ca 1MiB-20MiB</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Redare</translation>
    </message>
    <message>
        <source>{n} {n:match|matches}</source>
        <translation>{n} {n:potrivire|potriviri|de potriviri}</translation>
    </message>
    <message>
        <source>stream {stream}</source>
        <translation>stream {stream}</translation>
    </message>
    <message>
        <source>all streams</source>
        <translation>toate stream-urile</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>memory</source>
        <translation>memorie</translation>
    </message>
    <message>
        <source>allocated by site</source>
        <translation>alocat pe loc de apel</translation>
    </message>
    <message>
        <source>cached segments</source>
        <translation>segmente în cache</translation>
    </message>
    <message>
        <source>by pool</source>
        <translation>pe pool</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>stivă</translation>
    </message>
    <message>
        <source>forward stack</source>
        <translation>stiva trecerii înainte</translation>
    </message>
    <message>
        <source>event</source>
        <translation>eveniment</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloc</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocuri</translation>
    </message>
    <message>
        <source>settings</source>
        <translation>setări</translation>
    </message>
    <message>
        <source>span</source>
        <translation>interval</translation>
    </message>
    <message>
        <source>flame</source>
        <translation>flacără</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>free (cached)</source>
        <translation>liber (în cache)</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>cel mai mare bloc liber</translation>
    </message>
    <message>
        <source>no events on this device</source>
        <translation>niciun eveniment pe acest dispozitiv</translation>
    </message>
    <message>
        <source>fragmentation (%)</source>
        <translation>fragmentare (%)</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>memorie ({unit})</translation>
    </message>
    <message>
        <source>seconds since the first event</source>
        <translation>secunde de la primul eveniment</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>eveniment din jurnal</translation>
    </message>
    <message>
        <source>external fragmentation (right axis)</source>
        <translation>fragmentare externă (axa din dreapta)</translation>
    </message>
    <message>
        <source>record_function range</source>
        <translation>interval record_function</translation>
    </message>
    <message>
        <source>Explain the OOM at event {event}</source>
        <translation>Explicați OOM-ul de la evenimentul {event}</translation>
    </message>
    <message>
        <source>Explain event {event}</source>
        <translation>Explicați evenimentul {event}</translation>
    </message>
    <message>
        <source>Explain the first OOM</source>
        <translation>Explicați primul OOM</translation>
    </message>
    <message>
        <source>Explain the peak</source>
        <translation>Explicați vârful</translation>
    </message>
</context>
</TS>
