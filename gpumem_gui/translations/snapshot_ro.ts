<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
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
        <translation>Cât a cerut programul; sub cel alocat cu rotunjirea la 512 octeți.</translation>
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
        <source>OOM request</source>
        <translation>cererea OOM</translation>
    </message>
    <message>
        <source>free</source>
        <translation>liber</translation>
    </message>
    <message>
        <source>free on the device</source>
        <translation>liber pe dispozitiv</translation>
    </message>
    <message>
        <source>next requests</source>
        <translation>cererile următoare</translation>
    </message>
    <message>
        <source>largest next request</source>
        <translation>cea mai mare cerere următoare</translation>
    </message>
    <message>
        <source>holes taking the largest</source>
        <translation>goluri care o pot lua pe cea mai mare</translation>
    </message>
    <message>
        <source>requests fitting no hole</source>
        <translation>cereri care nu încap în niciun gol</translation>
    </message>
    <message>
        <source>free in holes too small</source>
        <translation>liber în goluri prea mici</translation>
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
    <name>Findings</name>
    <message>
        <source>high, little free</source>
        <translation>mare, puțin liber</translation>
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
        <translation>acum {low}–{high} evenimente</translation>
    </message>
    <message>
        <source>allocated, by age:</source>
        <translation>alocat, după vârstă:</translation>
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
</TS>
