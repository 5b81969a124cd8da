<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro_RO">
<context>
    <name>AttachDialog</name>
    <message>
        <source>To watch a job&apos;s allocator, start it with the probe:
    python -m gpumem_gui.probe train.py [args...]
or add two lines to it:
    import gpumem_gui.probe
    gpumem_gui.probe.start()
No GPU here? Try `gpumem-gui demo-job`, a simulated job with the real probe.</source>
        <translation>Pentru a urmări alocatorul unui job, porniți-l cu sonda:
    python -m gpumem_gui.probe train.py [args...]
sau adăugați-i două linii:
    import gpumem_gui.probe
    gpumem_gui.probe.start()
Nu aveți GPU aici? Încercați `gpumem-gui demo-job`, un job simulat cu sonda reală.</translation>
    </message>
    <message>
        <source>Attach to a local job</source>
        <translation>Atașați-vă la un job local</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>memorie GPU</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>sondă</translation>
    </message>
    <message>
        <source>command</source>
        <translation>comandă</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Reîmprospătați</translation>
    </message>
    <message>
        <source>Attach</source>
        <translation>Atașați</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Anulați</translation>
    </message>
    <message>
        <source>looking for GPU processes and probes...</source>
        <translation>se caută procese GPU și sonde...</translation>
    </message>
    <message>
        <source>The local jobs could not be listed: {message}</source>
        <translation>Joburile locale nu au putut fi listate: {message}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>GPU processes from NVML, and every local job that runs a probe.</source>
        <translation>Procesele GPU din NVML și fiecare job local care rulează o sondă.</translation>
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
        <source>No local GPU process and no probe found.</source>
        <translation>Nu s-a găsit niciun proces GPU local și nicio sondă.</translation>
    </message>
</context>
<context>
    <name>DeviceView</name>
    <message>
        <source>GPU / pid</source>
        <translation>GPU / pid</translation>
    </message>
    <message>
        <source>GPUs in NVML (PCI bus) order; CUDA numbers them alike only with CUDA_DEVICE_ORDER=PCI_BUS_ID.</source>
        <translation>GPU-urile în ordinea NVML (magistrala PCI); CUDA le numerotează la fel doar cu CUDA_DEVICE_ORDER=PCI_BUS_ID.</translation>
    </message>
    <message>
        <source>name / command</source>
        <translation>nume / comandă</translation>
    </message>
    <message>
        <source>The GPU&apos;s name; for a process its command line (from psutil).</source>
        <translation>Numele GPU-ului; pentru un proces, linia sa de comandă (din psutil).</translation>
    </message>
    <message>
        <source>used</source>
        <translation>folosit</translation>
    </message>
    <message>
        <source>Device memory in use; for a process, what NVML charges to it (its CUDA context included).</source>
        <translation>Memoria dispozitivului în uz; pentru un proces, cât îi atribuie NVML (inclusiv contextul său CUDA).</translation>
    </message>
    <message>
        <source>free</source>
        <translation>liber</translation>
    </message>
    <message>
        <source>Device memory nobody holds.</source>
        <translation>Memoria dispozitivului pe care nu o ține nimeni.</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>Memory the driver and firmware set aside (NVML memory info v2). n/a where the driver only has v1: then &apos;used&apos; includes it, which is why an idle GPU seems to use hundreds of MiB.</source>
        <translation>Memoria pusă deoparte de driver și firmware (NVML memory info v2). n/a acolo unde driverul are doar v1: atunci „folosit” o include, de aceea un GPU inactiv pare să folosească sute de MiB.</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>The device&apos;s memory.</source>
        <translation>Memoria dispozitivului.</translation>
    </message>
    <message>
        <source>GPU util</source>
        <translation>utilizare GPU</translation>
    </message>
    <message>
        <source>Fraction of the last sample period during which a kernel was running on the GPU.</source>
        <translation>Fracțiunea din ultima perioadă de eșantionare în care un kernel a rulat pe GPU.</translation>
    </message>
    <message>
        <source>memory util</source>
        <translation>utilizare memorie</translation>
    </message>
    <message>
        <source>temp</source>
        <translation>temp.</translation>
    </message>
    <message>
        <source>GPU core temperature.</source>
        <translation>Temperatura nucleului GPU.</translation>
    </message>
    <message>
        <source>user</source>
        <translation>utilizator</translation>
    </message>
    <message>
        <source>Owner of the process (from psutil); n/a when it has ended or may not be read.</source>
        <translation>Proprietarul procesului (din psutil); n/a când procesul s-a încheiat sau nu poate fi citit.</translation>
    </message>
    <message>
        <source>UUID / kind</source>
        <translation>UUID / tip</translation>
    </message>
    <message>
        <source>The GPU&apos;s UUID (stable across reboots, unlike indices); for a process its context kind.</source>
        <translation>UUID-ul GPU-ului (stabil între reporniri, spre deosebire de indici); pentru un proces, tipul contextului său.</translation>
    </message>
    <message>
        <source>refresh every</source>
        <translation>reîmprospătare la fiecare</translation>
    </message>
    <message>
        <source>How often NVML is read. NVML&apos;s own utilisation samples cover 1/6 s to 1 s.</source>
        <translation>Cât de des se citește NVML. Eșantioanele de utilizare ale NVML acoperă între 1/6 s și 1 s.</translation>
    </message>
    <message>
        <source>NVML: not polled yet</source>
        <translation>NVML: încă neinterogat</translation>
    </message>
    <message>
        <source>NVML polling stopped: {message}</source>
        <translation>Interogarea NVML s-a oprit: {message}</translation>
    </message>
    <message>
        <source>NVIDIA driver {driver}: {n} {n:GPU|GPUs}; read at {time} in {ms} ms</source>
        <translation>Driver NVIDIA {driver}: {n} {n:GPU|GPU-uri|de GPU-uri}; citit la {time} în {ms} ms</translation>
    </message>
    <message>
        <source>NVML: checked at {time}</source>
        <translation>NVML: verificat la {time}</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octeți)</translation>
    </message>
    <message>
        <source>This driver has only memory info v1: &apos;used&apos; includes driver-reserved memory.</source>
        <translation>Acest driver are doar memory info v1: „folosit” include memoria rezervată de driver.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>no processes</source>
        <translation>niciun proces</translation>
    </message>
    <message>
        <source>NVML lists no process on this GPU.</source>
        <translation>NVML nu listează niciun proces pe acest GPU.</translation>
    </message>
    <message>
        <source>Memory utilisation is the fraction of the last sample period (1/6 s to 1 s) during which device memory was read or written: bandwidth busy time, not how full the memory is. Fullness is used / total.</source>
        <translation>Utilizarea memoriei este fracțiunea din ultima perioadă de eșantionare (între 1/6 s și 1 s) în care memoria dispozitivului a fost citită sau scrisă: timpul în care lățimea de bandă a fost ocupată, nu cât de plină este memoria. Gradul de umplere este folosită / totală.</translation>
    </message>
</context>
<context>
    <name>LiveGrid</name>
    <message>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Stare</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>Rezervat</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Alocat</translation>
    </message>
    <message>
        <source>Peak reserved</source>
        <translation>Vârf rezervat</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>Snapshot-uri</translation>
    </message>
    <message>
        <source>live</source>
        <translation>activ</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>încheiat</translation>
    </message>
    <message>
        <source>detached</source>
        <translation>detașat</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>închis</translation>
    </message>
    <message>
        <source>reserved ({unit})</source>
        <translation>rezervat ({unit})</translation>
    </message>
    <message>
        <source>seconds since the first figures</source>
        <translation>secunde de la primele cifre</translation>
    </message>
    <message>
        <source>Double-click a job to go to its tab. Reserved, allocated and OOMs are the allocator&apos;s own figures, summed over each job&apos;s GPUs.</source>
        <translation>Dublu clic pe un job pentru a merge la fila sa. Rezervat, alocat și OOM-urile sunt cifrele alocatorului însuși, însumate pe GPU-urile fiecărui job.</translation>
    </message>
    <message>
        <source>No job yet: attach to the jobs (Live &gt; Attach...) and they are listed here.</source>
        <translation>Niciun job încă: atașați-vă la joburi (Live &gt; Attach...) și vor apărea aici.</translation>
    </message>
    <message>
        <source> (forwarded: a job on another machine)</source>
        <translation> (redirecționat: un job de pe altă mașină)</translation>
    </message>
    <message>
        <source>the allocator&apos;s own peak counter: a peak between two refreshes shows here</source>
        <translation>contorul de vârf al alocatorului însuși: un vârf dintre două reîmprospătări apare aici</translation>
    </message>
    <message>
        <source>out-of-memory errors in the job, since it started</source>
        <translation>erori de memorie epuizată în job, de la pornirea lui</translation>
    </message>
    <message>
        <source>snapshots received</source>
        <translation>snapshot-uri primite</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octeți)</translation>
    </message>
</context>
<context>
    <name>LiveSession</name>
    <message>
        <source>the probe sent an unreadable snapshot: {error}</source>
        <translation>sonda a trimis un snapshot ilizibil: {error}</translation>
    </message>
    <message>
        <source>nothing to save yet: no snapshot has arrived</source>
        <translation>nimic de salvat încă: nu a sosit niciun snapshot</translation>
    </message>
    <message>
        <source>cannot save {path}: {error}</source>
        <translation>{path} nu poate fi salvat: {error}</translation>
    </message>
    <message>
        <source>saved {path}</source>
        <translation>{path} a fost salvat</translation>
    </message>
    <message>
        <source>the job (pid {pid}) closed its probe at {time}</source>
        <translation>jobul (pid {pid}) și-a închis sonda la {time}</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has exited at {time}</source>
        <translation>jobul (pid {pid}) s-a încheiat la {time}</translation>
    </message>
</context>
<context>
    <name>LiveView</name>
    <message>
        <source>requested</source>
        <translation>cerut</translation>
    </message>
    <message>
        <source>what the program asked for (requested_bytes)</source>
        <translation>cât a cerut programul (requested_bytes)</translation>
    </message>
    <message>
        <source>rounding</source>
        <translation>rotunjire</translation>
    </message>
    <message>
        <source>allocated - requested: the allocator&apos;s rounding of each request</source>
        <translation>alocat - cerut: rotunjirea fiecărei cereri de către alocator</translation>
    </message>
    <message>
        <source>cached free</source>
        <translation>liber în cache</translation>
    </message>
    <message>
        <source>reserved - allocated: cached by PyTorch, free for it, unusable by others</source>
        <translation>rezervat - alocat: în cache-ul PyTorch, liber pentru el, inutilizabil pentru alții</translation>
    </message>
    <message>
        <source>outside PyTorch</source>
        <translation>în afara PyTorch</translation>
    </message>
    <message>
        <source>NVML&apos;s used - reserved: CUDA context, cuBLAS/NCCL workspaces, other libraries</source>
        <translation>folosit după NVML - rezervat: contextul CUDA, spațiile de lucru cuBLAS/NCCL, alte biblioteci</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octeți)</translation>
    </message>
    <message>
        <source>waiting for the first figures</source>
        <translation>se așteaptă primele cifre</translation>
    </message>
    <message>
        <source>n/a (no NVML)</source>
        <translation>n/a (fără NVML)</translation>
    </message>
    <message>
        <source>NVML used by the process: {size}</source>
        <translation>NVML, folosit de proces: {size}</translation>
    </message>
    <message>
        <source>  of which outside PyTorch (context, libraries): {size}</source>
        <translation>  din care în afara PyTorch (context, biblioteci): {size}</translation>
    </message>
    <message>
        <source>  PyTorch reserved: {size}</source>
        <translation>  rezervat de PyTorch: {size}</translation>
    </message>
    <message>
        <source>    of which allocated: {size}</source>
        <translation>    din care alocat: {size}</translation>
    </message>
    <message>
        <source>      of which requested: {size}</source>
        <translation>      din care cerut: {size}</translation>
    </message>
    <message>
        <source>peak allocated (allocator counter): {size}</source>
        <translation>vârf alocat (contorul alocatorului): {size}</translation>
    </message>
    <message>
        <source>device: {used} used of {total} (all processes)</source>
        <translation>dispozitiv: {used} folosiți din {total} (toate procesele)</translation>
    </message>
    <message>
        <source>waiting for the first figures...</source>
        <translation>se așteaptă primele cifre...</translation>
    </message>
    <message>
        <source>{name}: n/a</source>
        <translation>{name}: n/a</translation>
    </message>
    <message>
        <source>{name}: {size}</source>
        <translation>{name}: {size}</translation>
    </message>
    <message>
        <source>- - peak allocated {size}</source>
        <translation>- - vârf alocat {size}</translation>
    </message>
    <message>
        <source>seconds since attach</source>
        <translation>secunde de la atașare</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>peak allocated (counter)</source>
        <translation>vârf alocat (contor)</translation>
    </message>
    <message>
        <source>waiting for the first snapshot...</source>
        <translation>se așteaptă primul snapshot...</translation>
    </message>
    <message>
        <source>simulated job</source>
        <translation>job simulat</translation>
    </message>
    <message>
        <source>rank {rank} pid {pid}</source>
        <translation>rangul {rank} pid {pid}</translation>
    </message>
    <message>
        <source>pid {pid}</source>
        <translation>pid {pid}</translation>
    </message>
    <message>
        <source> on another machine, via {path}</source>
        <translation> pe altă mașină, prin {path}</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reluați</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pauză</translation>
    </message>
    <message>
        <source>Snapshot now</source>
        <translation>Snapshot acum</translation>
    </message>
    <message>
        <source>Save last snapshot...</source>
        <translation>Salvați ultimul snapshot...</translation>
    </message>
    <message>
        <source>Save snapshot now...</source>
        <translation>Salvați un snapshot acum...</translation>
    </message>
    <message>
        <source>Mark...</source>
        <translation>Marcaj...</translation>
    </message>
    <message>
        <source>Put a named mark in the job&apos;s trace (shown on the timeline)</source>
        <translation>Puneți un marcaj cu nume în urma jobului (afișat pe cronologie)</translation>
    </message>
    <message>
        <source>Stop recording</source>
        <translation>Opriți înregistrarea</translation>
    </message>
    <message>
        <source>Record...</source>
        <translation>Înregistrați...</translation>
    </message>
    <message>
        <source>Write every snapshot and stats sample of this session to a folder</source>
        <translation>Scrieți fiecare snapshot și eșantion de statistici al acestei sesiuni într-un dosar</translation>
    </message>
    <message>
        <source>Detach</source>
        <translation>Detașați</translation>
    </message>
    <message>
        <source>snapshot {number} at {time}: {size}, {events} trace events, fetched and indexed in {ms} ms</source>
        <translation>snapshot-ul {number} la {time}: {size}, {events} evenimente în urmă, preluat și indexat în {ms} ms</translation>
    </message>
    <message>
        <source>; its snapshot is in the list below (double-click to open)</source>
        <translation>; snapshot-ul său este în lista de mai jos (dublu clic pentru a-l deschide)</translation>
    </message>
    <message>
        <source>Out of memory in the job at {time} (OOM #{ordinal}): a request of {size} on GPU {device} failed</source>
        <translation>Memorie epuizată în job la {time} (OOM #{ordinal}): o cerere de {size} pe GPU {device} a eșuat</translation>
    </message>
    <message>
        <source>The live session stopped: {message}</source>
        <translation>Sesiunea live s-a oprit: {message}</translation>
    </message>
    <message>
        <source>{why}. The last state stays on screen; Save snapshot now writes it to a file.</source>
        <translation>{why}. Ultima stare rămâne pe ecran; Salvați un snapshot acum o scrie într-un fișier.</translation>
    </message>
    <message>
        <source>Save snapshot</source>
        <translation>Salvați snapshot-ul</translation>
    </message>
    <message>
        <source>Snapshots (*.pickle)</source>
        <translation>Snapshot-uri (*.pickle)</translation>
    </message>
    <message>
        <source>Mark</source>
        <translation>Marcaj</translation>
    </message>
    <message>
        <source>Name of the mark:</source>
        <translation>Numele marcajului:</translation>
    </message>
    <message>
        <source>marked {name}</source>
        <translation>marcat {name}</translation>
    </message>
    <message>
        <source>Record the session into</source>
        <translation>Înregistrați sesiunea în</translation>
    </message>
    <message>
        <source>recording into {folder}</source>
        <translation>se înregistrează în {folder}</translation>
    </message>
</context>
<context>
    <name>Nvml</name>
    <message>
        <source>NVIDIA driver not found: NVML is unavailable (no GPU monitoring)</source>
        <translation>Driverul NVIDIA nu a fost găsit: NVML nu este disponibil (fără monitorizarea GPU-urilor)</translation>
    </message>
    <message>
        <source>NVIDIA driver is installed but not loaded: NVML is unavailable (no GPU monitoring)</source>
        <translation>Driverul NVIDIA este instalat, dar nu este încărcat: NVML nu este disponibil (fără monitorizarea GPU-urilor)</translation>
    </message>
    <message>
        <source>NVIDIA driver and NVML library versions differ (reboot or reload the driver): no GPU monitoring</source>
        <translation>Versiunile driverului NVIDIA și ale bibliotecii NVML diferă (reporniți sau reîncărcați driverul): fără monitorizarea GPU-urilor</translation>
    </message>
    <message>
        <source>nvidia-ml-py (module pynvml) is not installed: NVML is unavailable (no GPU monitoring)</source>
        <translation>nvidia-ml-py (modulul pynvml) nu este instalat: NVML nu este disponibil (fără monitorizarea GPU-urilor)</translation>
    </message>
    <message>
        <source>NVML could not start ({error}): no GPU monitoring</source>
        <translation>NVML nu a putut porni ({error}): fără monitorizarea GPU-urilor</translation>
    </message>
    <message>
        <source>NVML could not count the GPUs ({error})</source>
        <translation>NVML nu a putut număra GPU-urile ({error})</translation>
    </message>
    <message>
        <source>reading failed: {error}</source>
        <translation>citirea a eșuat: {error}</translation>
    </message>
    <message>
        <source>{kind} processes n/a ({error})</source>
        <translation>procese {kind} indisponibile ({error})</translation>
    </message>
    <message>
        <source>{kind} processes n/a (this driver has no call to list them)</source>
        <translation>procese {kind} indisponibile (acest driver nu are un apel care să le listeze)</translation>
    </message>
    <message>
        <source>NVML read failed: {error}</source>
        <translation>citirea NVML a eșuat: {error}</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>de calcul</translation>
    </message>
    <message>
        <source>graphics</source>
        <translation>grafice</translation>
    </message>
</context>
<context>
    <name>OomList</name>
    <message>
        <source>time</source>
        <translation>ora</translation>
    </message>
    <message>
        <source>request</source>
        <translation>cerere</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>snapshot</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Deschideți</translation>
    </message>
    <message>
        <source>Open the selected OOM&apos;s snapshot in a tab of its own (or double-click a row)</source>
        <translation>Deschideți snapshot-ul OOM-ului selectat într-o filă separată (sau dublu clic pe un rând)</translation>
    </message>
    <message>
        <source>no such OOM in the list</source>
        <translation>acest OOM nu este în listă</translation>
    </message>
    <message>
        <source>OOM #{ordinal}: {problem}</source>
        <translation>OOM #{ordinal}: {problem}</translation>
    </message>
    <message>
        <source>none written</source>
        <translation>niciunul scris</translation>
    </message>
    <message>
        <source>the probe writes a snapshot for the first OOMs of a job only</source>
        <translation>sonda scrie un snapshot doar pentru primele OOM-uri ale unui job</translation>
    </message>
    <message>
        <source>{name} (gone)</source>
        <translation>{name} (dispărut)</translation>
    </message>
    <message>
        <source>{path} no longer exists</source>
        <translation>{path} nu mai există</translation>
    </message>
    <message>
        <source>{path}
double-click to open it in a tab</source>
        <translation>{path}
dublu clic pentru a-l deschide într-o filă</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octeți)</translation>
    </message>
    <message>
        <source>the job&apos;s OOM number {n}</source>
        <translation>OOM-ul numărul {n} al jobului</translation>
    </message>
    <message>
        <source>the request that failed: {size}</source>
        <translation>cererea care a eșuat: {size}</translation>
    </message>
    <message>
        <source>no out-of-memory error since attaching</source>
        <translation>nicio eroare de memorie epuizată de la atașare</translation>
    </message>
    <message>
        <source>{n} out-of-memory {n:error|errors} since attaching</source>
        <translation>{n} {n:eroare|erori|de erori} de memorie epuizată de la atașare</translation>
    </message>
    <message>
        <source>; the latest {listed} listed, {dropped} earlier dropped</source>
        <translation>; ultimele {listed} listate, {dropped} mai vechi eliminate</translation>
    </message>
    <message>
        <source> (double-click one to open its snapshot)</source>
        <translation> (dublu clic pe una pentru a-i deschide snapshot-ul)</translation>
    </message>
    <message>
        <source>the probe wrote no snapshot for this OOM (it writes one for the first OOMs of a job only)</source>
        <translation>sonda nu a scris niciun snapshot pentru acest OOM (scrie unul doar pentru primele OOM-uri ale unui job)</translation>
    </message>
    <message>
        <source>its snapshot {path} no longer exists (a demo job removes its OOM folder when it exits)</source>
        <translation>snapshot-ul său {path} nu mai există (un job demonstrativ își șterge dosarul de OOM-uri la ieșire)</translation>
    </message>
</context>
<context>
    <name>Probe</name>
    <message>
        <source>process {pid} runs no gpumem-gui probe: start the job with `python -m gpumem_gui.probe script.py`, or add `import gpumem_gui.probe; gpumem_gui.probe.start()` to it</source>
        <translation>procesul {pid} nu rulează nicio sondă gpumem-gui: porniți jobul cu `python -m gpumem_gui.probe script.py` sau adăugați în el `import gpumem_gui.probe; gpumem_gui.probe.start()`</translation>
    </message>
    <message>
        <source>no probe answers at {path}: its job has gone and left the socket behind</source>
        <translation>nicio sondă nu răspunde la {path}: jobul ei s-a încheiat și a lăsat socketul în urmă</translation>
    </message>
    <message>
        <source>cannot connect to the probe at {path}: {error}</source>
        <translation>conectarea la sonda de la {path} nu este posibilă: {error}</translation>
    </message>
    <message>
        <source>no process {pid}</source>
        <translation>niciun proces {pid}</translation>
    </message>
    <message>
        <source>the probe in pid {pid} did not answer in {seconds} s</source>
        <translation>sonda din pid {pid} nu a răspuns în {seconds} s</translation>
    </message>
    <message>
        <source>the probe in pid {pid} sent a bad message: {error}</source>
        <translation>sonda din pid {pid} a trimis un mesaj greșit: {error}</translation>
    </message>
    <message>
        <source>the probe in pid {pid} sent a bad snapshot: {error}</source>
        <translation>sonda din pid {pid} a trimis un snapshot greșit: {error}</translation>
    </message>
    <message>
        <source>cannot store the snapshot of pid {pid}: {error}</source>
        <translation>snapshotul pid-ului {pid} nu poate fi stocat: {error}</translation>
    </message>
    <message>
        <source>the probe refused the connection</source>
        <translation>sonda a refuzat conexiunea</translation>
    </message>
    <message>
        <source>the probe refused the request</source>
        <translation>sonda a refuzat cererea</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has gone: {error}</source>
        <translation>jobul (pid {pid}) nu mai există: {error}</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has gone during the transfer: {error}</source>
        <translation>jobul (pid {pid}) a dispărut în timpul transferului: {error}</translation>
    </message>
    <message>
        <source>the snapshot of pid {pid} ({length} bytes) does not fit in the free space where it is stored ({free} bytes free)</source>
        <translation>snapshotul pid-ului {pid} ({length} octeți) nu încape în spațiul liber unde este stocat ({free} octeți liberi)</translation>
    </message>
    <message>
        <source>too many viewers attached</source>
        <translation>prea mulți vizualizatori atașați</translation>
    </message>
    <message>
        <source>connection from uid {uid} refused: only uid {me} may attach</source>
        <translation>conexiunea de la uid {uid} a fost refuzată: doar uid {me} se poate atașa</translation>
    </message>
    <message>
        <source>this system cannot tell who is connecting (no SO_PEERCRED)</source>
        <translation>acest sistem nu poate spune cine se conectează (fără SO_PEERCRED)</translation>
    </message>
    <message>
        <source>{op} failed in the probe: {error}</source>
        <translation>{op} a eșuat în sondă: {error}</translation>
    </message>
    <message>
        <source>socket folder {path}: cannot create it: {error}</source>
        <translation>dosarul de socketuri {path}: nu poate fi creat: {error}</translation>
    </message>
    <message>
        <source>socket folder {path}: {error}</source>
        <translation>dosarul de socketuri {path}: {error}</translation>
    </message>
    <message>
        <source>socket folder {path} is not a directory</source>
        <translation>dosarul de socketuri {path} nu este un dosar</translation>
    </message>
    <message>
        <source>socket folder {path} belongs to another user (uid {uid})</source>
        <translation>dosarul de socketuri {path} aparține altui utilizator (uid {uid})</translation>
    </message>
    <message>
        <source>socket folder {path} is open to other users (mode {mode}); expected 0700</source>
        <translation>dosarul de socketuri {path} este deschis altor utilizatori (mod {mode}); se așteaptă 0700</translation>
    </message>
    <message>
        <source>no socket at {path}: nothing there (for an SSH forward: is `ssh -L` running?)</source>
        <translation>niciun socket la {path}: nu există nimic acolo (pentru o redirecționare SSH: rulează `ssh -L`?)</translation>
    </message>
    <message>
        <source>cannot reach {path}: {error}</source>
        <translation>{path} nu poate fi accesat: {error}</translation>
    </message>
    <message>
        <source>{path} is a folder, not a probe&apos;s socket</source>
        <translation>{path} este un dosar, nu socketul unei sonde</translation>
    </message>
    <message>
        <source>{path} is a file, not a probe&apos;s socket</source>
        <translation>{path} este un fișier, nu socketul unei sonde</translation>
    </message>
    <message>
        <source>{path} is not a socket, not a probe&apos;s socket</source>
        <translation>{path} nu este un socket, deci nici socketul unei sonde</translation>
    </message>
    <message>
        <source>{what} took longer than {seconds} s: {path}</source>
        <translation>{what} a durat mai mult de {seconds} s: {path}</translation>
    </message>
    <message>
        <source>{what} failed: {error}</source>
        <translation>{what} a eșuat: {error}</translation>
    </message>
    <message>
        <source>nothing listens at {path}: the probe&apos;s job or the SSH forward has gone</source>
        <translation>nimic nu ascultă la {path}: jobul sondei sau redirecționarea SSH nu mai există</translation>
    </message>
    <message>
        <source>what answers at {path} is not a gpumem-gui probe</source>
        <translation>ce răspunde la {path} nu este o sondă gpumem-gui</translation>
    </message>
    <message>
        <source>the connection at {path} closed without an answer: no probe behind it (for an SSH forward: is the job still running, and is the server&apos;s socket path right?)</source>
        <translation>conexiunea de la {path} s-a închis fără răspuns: nicio sondă în spatele ei (pentru o redirecționare SSH: mai rulează jobul și este corectă calea socketului pe server?)</translation>
    </message>
    <message>
        <source>the probe&apos;s hello</source>
        <translation>salutul sondei</translation>
    </message>
    <message>
        <source>the snapshot</source>
        <translation>snapshotul</translation>
    </message>
</context>
</TS>
