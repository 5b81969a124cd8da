<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro_RO">
<context>
    <name>ClusterFolderDialog</name>
    <message>
        <source>Open Cluster Folder</source>
        <translation>Deschideți un dosar de cluster</translation>
    </message>
    <message>
        <source>/shared/run42/snapshots (as the workers see it)</source>
        <translation>/shared/run42/snapshots (așa cum îl văd nodurile de lucru)</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Răsfoiți...</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Dosar:</translation>
    </message>
    <message>
        <source>Dask scheduler:</source>
        <translation>Planificator Dask:</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Deschideți</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Anulați</translation>
    </message>
    <message>
        <source>A folder of rank snapshots</source>
        <translation>Un dosar cu snapshot-uri pe ranguri</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>reserved</source>
        <translation>rezervat</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alocat</translation>
    </message>
    <message>
        <source>free (cached)</source>
        <translation>liber (în cache)</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segmente</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocuri</translation>
    </message>
    <message>
        <source>site</source>
        <translation>loc din cod</translation>
    </message>
    <message>
        <source>added</source>
        <translation>adăugate</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>eliminate</translation>
    </message>
    <message>
        <source>Show added and removed</source>
        <translation>Arătați blocurile adăugate și eliminate</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sites that changed&lt;/b&gt; (click one: its blocks on both maps)</source>
        <translation>&lt;b&gt;Locuri din cod care s-au schimbat&lt;/b&gt; (faceți clic pe unul: blocurile sale pe ambele hărți)</translation>
    </message>
    <message>
        <source>A event</source>
        <translation>eveniment A</translation>
    </message>
    <message>
        <source>B event</source>
        <translation>eveniment B</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>memorie ({unit})</translation>
    </message>
    <message>
        <source>A&apos;s trace event (B aligned)</source>
        <translation>evenimentul din urma lui A (B aliniat)</translation>
    </message>
    <message>
        <source>the moments both maps show</source>
        <translation>momentele arătate de ambele hărți</translation>
    </message>
    <message>
        <source>click or drag the timeline (or Left/Right) to travel both; B&apos;s event box moves B alone</source>
        <translation>faceți clic sau trageți pe cronologie (sau Stânga/Dreapta) pentru a le muta pe amândouă; caseta de eveniment a lui B îl mută doar pe B</translation>
    </message>
    <message>
        <source>comparing A at {a} with B at {b}...</source>
        <translation>se compară A la {a} cu B la {b}...</translation>
    </message>
    <message>
        <source>GPU {device}, {event}</source>
        <translation>GPU {device}, {event}</translation>
    </message>
    <message>
        <source>allocated blocks: &lt;b&gt;{added}&lt;/b&gt; added ({added_bytes}), &lt;b&gt;{removed}&lt;/b&gt; removed ({removed_bytes}), {kept} kept</source>
        <translation>blocuri alocate: &lt;b&gt;{added}&lt;/b&gt; adăugate ({added_bytes}), &lt;b&gt;{removed}&lt;/b&gt; eliminate ({removed_bytes}), {kept} păstrate</translation>
    </message>
</context>
<context>
    <name>RankCurves</name>
    <message>
        <source>(none in {0} rank summaries: summarize them with --pin)</source>
        <translation>(lipsește din {0} rezumate de ranguri: rezumați-le cu --pin)</translation>
    </message>
</context>
<context>
    <name>RankFolder</name>
    <message>
        <source>not enough memory to load it ({path})</source>
        <translation>memorie insuficientă pentru a-l încărca ({path})</translation>
    </message>
    <message>
        <source>cannot read: {error} ({path})</source>
        <translation>nu poate fi citit: {error} ({path})</translation>
    </message>
    <message>
        <source>a loop of symbolic links ({path})</source>
        <translation>o buclă de legături simbolice ({path})</translation>
    </message>
    <message>
        <source>a symbolic link to {target}, which does not exist ({path})</source>
        <translation>o legătură simbolică spre {target}, care nu există ({path})</translation>
    </message>
    <message>
        <source>the process reading it was killed by {signal} ({path})</source>
        <translation>procesul care îl citea a fost oprit de {signal} ({path})</translation>
    </message>
    <message>
        <source>the process reading it ended without an answer (exit status {status}) ({path})</source>
        <translation>procesul care îl citea s-a încheiat fără răspuns (cod de ieșire {status}) ({path})</translation>
    </message>
    <message>
        <source>the process reading it stopped ({error}) ({path})</source>
        <translation>procesul care îl citea s-a oprit ({error}) ({path})</translation>
    </message>
    <message>
        <source>every Dask worker that read it died (KilledWorker) ({path})</source>
        <translation>fiecare worker Dask care l-a citit a murit (KilledWorker) ({path})</translation>
    </message>
    <message>
        <source>the Dask scheduler went away before it was read ({name}) ({path})</source>
        <translation>planificatorul Dask a dispărut înainte ca fișierul să fie citit ({name}) ({path})</translation>
    </message>
    <message>
        <source>the Dask scheduler went away before it was read ({path})</source>
        <translation>planificatorul Dask a dispărut înainte ca fișierul să fie citit ({path})</translation>
    </message>
    <message>
        <source>the Dask task reading it failed ({error}) ({path})</source>
        <translation>sarcina Dask care îl citea a eșuat ({error}) ({path})</translation>
    </message>
</context>
<context>
    <name>RankPins</name>
    <message>
        <source>site</source>
        <translation>loc de apel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>categorie</translation>
    </message>
    <message>
        <source>search</source>
        <translation>căutare</translation>
    </message>
    <message>
        <source>a site (file:line:function), a category, or text in a frame of the stack</source>
        <translation>un loc (fișier:linie:funcție), o categorie sau un text dintr-un cadru al stivei</translation>
    </message>
    <message>
        <source>Pin on every rank</source>
        <translation>Fixați pe toate rangurile</translation>
    </message>
    <message>
        <source>draw the bytes it holds over each rank&apos;s trace; the summaries are read again for it</source>
        <translation>desenează octeții ocupați de-a lungul istoricului fiecărui rang; rezumatele se citesc din nou pentru aceasta</translation>
    </message>
    <message>
        <source>pin:</source>
        <translation>fixare:</translation>
    </message>
    <message>
        <source>stack holds &apos;{0}&apos;</source>
        <translation>stiva conține „{0}”</translation>
    </message>
    <message>
        <source>pick a site the ranks name at their peaks, or type one</source>
        <translation>alegeți un loc numit de ranguri la vârfurile lor sau scrieți unul</translation>
    </message>
    <message>
        <source>pick a category</source>
        <translation>alegeți o categorie</translation>
    </message>
    <message>
        <source>text in a frame of the stack, e.g. loss.py</source>
        <translation>text dintr-un cadru al stivei, de ex. loss.py</translation>
    </message>
    <message>
        <source>unpin it from every rank</source>
        <translation>anulați fixarea pe toate rangurile</translation>
    </message>
</context>
<context>
    <name>RanksView</name>
    <message>
        <source>high res.</source>
        <translation>rez. mare</translation>
    </message>
    <message>
        <source>high alloc.</source>
        <translation>aloc. mare</translation>
    </message>
    <message>
        <source>OOM on device {devices}</source>
        <translation>OOM pe dispozitivul {devices}</translation>
    </message>
    <message>
        <source>rank {rank}</source>
        <translation>rangul {rank}</translation>
    </message>
    <message>
        <source>rank {rank} step {step}</source>
        <translation>rangul {rank}, pasul {step}</translation>
    </message>
    <message>
        <source>reserved ({unit}) over each rank&apos;s events, on one scale</source>
        <translation>rezervat ({unit}) de-a lungul evenimentelor fiecărui rang, pe aceeași scară</translation>
    </message>
    <message>
        <source>; the first {shown} of {files} files (the table lists them all)</source>
        <translation>; primele {shown} din {files} fișiere (tabelul le listează pe toate)</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>rang</translation>
    </message>
    <message>
        <source>step</source>
        <translation>pas</translation>
    </message>
    <message>
        <source>file</source>
        <translation>fișier</translation>
    </message>
    <message>
        <source>device</source>
        <translation>dispozitiv</translation>
    </message>
    <message>
        <source>peak reserved</source>
        <translation>vârf rezervat</translation>
    </message>
    <message>
        <source>peak allocated</source>
        <translation>vârf alocat</translation>
    </message>
    <message>
        <source>final reserved</source>
        <translation>rezervat la final</translation>
    </message>
    <message>
        <source>final allocated</source>
        <translation>alocat la final</translation>
    </message>
    <message>
        <source>frag. at peak</source>
        <translation>frag. la vârf</translation>
    </message>
    <message>
        <source>flags</source>
        <translation>semnale</translation>
    </message>
    <message>
        <source>a peak whose modified z-score among its step and stage is above {z}</source>
        <translation>un vârf al cărui scor z modificat, între cele de la același pas și stadiu, depășește {z}</translation>
    </message>
    <message>
        <source> over {seconds} s</source>
        <translation> pe parcursul a {seconds} s</translation>
    </message>
    <message>
        <source> over {ms} ms</source>
        <translation> pe parcursul a {ms} ms</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octeți)</translation>
    </message>
    <message>
        <source>rank {rank}: from the file&apos;s name or its metadata</source>
        <translation>rangul {rank}: din numele fișierului sau din metadatele sale</translation>
    </message>
    <message>
        <source>rank {rank}: the device index (nothing names it)</source>
        <translation>rangul {rank}: indicele dispozitivului (nimic nu îl numește)</translation>
    </message>
    <message>
        <source>the start</source>
        <translation>început</translation>
    </message>
    <message>
        <source>event {event}</source>
        <translation>evenimentul {event}</translation>
    </message>
    <message>
        <source>device {device}: the one that reserved the most at its peak</source>
        <translation>dispozitivul {device}: cel care a rezervat cel mai mult la vârful său</translation>
    </message>
    <message>
        <source>peak reserved {size} (at {at} of {events})</source>
        <translation>vârf rezervat {size} (la {at} din {events})</translation>
    </message>
    <message>
        <source>peak allocated {size}</source>
        <translation>vârf alocat {size}</translation>
    </message>
    <message>
        <source>trace: {events} {events:event|events}{span}</source>
        <translation>urmă: {events} {events:eveniment|evenimente|de evenimente}{span}</translation>
    </message>
    <message>
        <source>flags: {flags} (high: {words})</source>
        <translation>semnale: {flags} (mare: {words})</translation>
    </message>
    <message>
        <source>double-click to open it at its peak</source>
        <translation>dublu clic pentru a-l deschide la vârful său</translation>
    </message>
    <message>
        <source>median</source>
        <translation>mediana</translation>
    </message>
    <message>
        <source>peak reserved ({unit})</source>
        <translation>vârf rezervat ({unit})</translation>
    </message>
    <message>
        <source>rank:step</source>
        <translation>rang:pas</translation>
    </message>
    <message>
        <source>Open a folder of per-rank snapshots.</source>
        <translation>Deschideți un dosar cu snapshot-uri pe ranguri.</translation>
    </message>
    <message>
        <source>%v of %m files</source>
        <translation>%v din %m fișiere</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Deschideți</translation>
    </message>
    <message>
        <source>Open the selected file (or double-click its row, or click its bar)</source>
        <translation>Deschideți fișierul selectat (sau dublu clic pe rândul său ori clic pe bara sa)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparați</translation>
    </message>
    <message>
        <source>Compare the two selected files block by block, each at its peak of reserved</source>
        <translation>Comparați cele două fișiere selectate bloc cu bloc, fiecare la vârful său de memorie rezervată</translation>
    </message>
    <message>
        <source>Peaks</source>
        <translation>Vârfuri</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Curbe</translation>
    </message>
    <message>
        <source>Every rank&apos;s reserved memory over its events, small plots on one scale</source>
        <translation>Memoria rezervată a fiecărui rang de-a lungul evenimentelor sale, grafice mici pe aceeași scară</translation>
    </message>
    <message>
        <source>Reading the snapshots in {folder} ...</source>
        <translation>Se citesc snapshot-urile din {folder} ...</translation>
    </message>
    <message>
        <source>Reading {folder}: {done} of {total} files ...</source>
        <translation>Se citește {folder}: {done} din {total} fișiere ...</translation>
    </message>
    <message>
        <source>Could not read the folder: {message}</source>
        <translation>Dosarul nu a putut fi citit: {message}</translation>
    </message>
    <message>
        <source>unreadable: “{error}”</source>
        <translation>ilizibil: „{error}”</translation>
    </message>
    <message>
        <source>and {n} more (see the tooltip)</source>
        <translation>și încă {n} (vedeți indicația)</translation>
    </message>
    <message>
        <source>reading on a cluster needs Dask: pip install &apos;gpumem-gui[cluster]&apos; (or: pip install &apos;dask[distributed]&apos;)</source>
        <translation>citirea pe un cluster are nevoie de Dask: pip install &apos;gpumem-gui[cluster]&apos; (sau: pip install &apos;dask[distributed]&apos;)</translation>
    </message>
    <message>
        <source>cannot reach the Dask scheduler {scheduler}: {error}</source>
        <translation>planificatorul Dask {scheduler} nu poate fi contactat: {error}</translation>
    </message>
    <message>
        <source>No snapshot files in {folder}.</source>
        <translation>Niciun fișier snapshot în {folder}.</translation>
    </message>
    <message>
        <source>{folder}: {files} {files:file|files}, {ranks} {ranks:rank|ranks}.</source>
        <translation>{folder}: {files} {files:fișier|fișiere|de fișiere}, {ranks} {ranks:rang|ranguri|de ranguri}.</translation>
    </message>
    <message>
        <source>Out of memory on rank {ranks} (red).</source>
        <translation>Memorie epuizată pe rangul {ranks} (roșu).</translation>
    </message>
    <message>
        <source>Outliers ({words}): rank {ranks} (orange).</source>
        <translation>Valori aberante ({words}): rangul {ranks} (portocaliu).</translation>
    </message>
    <message>
        <source>{files} {files:file|files} could not be read.</source>
        <translation>{files} {files:fișier nu a putut fi citit|fișiere nu au putut fi citite|de fișiere nu au putut fi citite}.</translation>
    </message>
</context>
<context>
    <name>SnapshotError</name>
    <message>
        <source>not a folder</source>
        <translation>nu este un dosar</translation>
    </message>
    <message>
        <source>not a summary file ({error})</source>
        <translation>nu este un fișier de rezumat ({error})</translation>
    </message>
    <message>
        <source>not a summary file (not a JSON object)</source>
        <translation>nu este un fișier de rezumat (nu este un obiect JSON)</translation>
    </message>
    <message>
        <source>a summary of version {found}, not {version}: summarize it again</source>
        <translation>un rezumat de versiunea {found}, nu {version}: rezumați-l din nou</translation>
    </message>
</context>
<context>
    <name>WhatIfDialog</name>
    <message>
        <source>What if...</source>
        <translation>Ce-ar fi dacă...</translation>
    </message>
    <message>
        <source>as recorded</source>
        <translation>ca la înregistrare</translation>
    </message>
    <message>
        <source>as recorded (MiB, &gt;= 20)</source>
        <translation>ca la înregistrare (MiB, &gt;= 20)</translation>
    </message>
    <message>
        <source>as recorded, e.g. 4 or [256:1,512:2,&gt;:4]</source>
        <translation>ca la înregistrare, de ex. 4 sau [256:1,512:2,&gt;:4]</translation>
    </message>
    <message>
        <source>as recorded, in (0, 1); needs a memory fraction</source>
        <translation>ca la înregistrare, în (0, 1); necesită o fracțiune de memorie</translation>
    </message>
    <message>
        <source>none, in (0, 1]</source>
        <translation>niciuna, în (0, 1]</translation>
    </message>
    <message>
        <source>what an OOM saw, else 80GiB</source>
        <translation>cât a văzut un OOM, altfel 80GiB</translation>
    </message>
    <message>
        <source>device capacity</source>
        <translation>capacitatea dispozitivului</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Rejucați</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Anulați</translation>
    </message>
</context>
<context>
    <name>WhatIfView</name>
    <message>
        <source>recorded</source>
        <translation>înregistrat</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>rejucat</translation>
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
        <source>memory ({unit})</source>
        <translation>memorie ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>eveniment din urmă</translation>
    </message>
    <message>
        <source>never</source>
        <translation>niciodată</translation>
    </message>
    <message>
        <source>first at event {event}</source>
        <translation>prima dată la evenimentul {event}</translation>
    </message>
    <message>
        <source>recorded settings</source>
        <translation>setările înregistrate</translation>
    </message>
    <message>
        <source>&lt;b&gt;{replayed}&lt;/b&gt; on {capacity}: peak reserved {peak_before} &amp;rarr; {peak_after} (&lt;b&gt;{diff}&lt;/b&gt;), OOMs {ooms_before} &amp;rarr; {ooms_after}, cudaMalloc/map calls {calls_before} &amp;rarr; {calls_after}, worst fragmentation {frag_before} &amp;rarr; {frag_after}; the replay differs from the recording {where}</source>
        <translation>&lt;b&gt;{replayed}&lt;/b&gt; pe {capacity}: vârf rezervat {peak_before} &amp;rarr; {peak_after} (&lt;b&gt;{diff}&lt;/b&gt;), OOM-uri {ooms_before} &amp;rarr; {ooms_after}, apeluri cudaMalloc/map {calls_before} &amp;rarr; {calls_after}, cea mai mare fragmentare {frag_before} &amp;rarr; {frag_after}; rejucarea diferă de înregistrare: {where}</translation>
    </message>
    <message>
        <source>. &lt;b&gt;Note:&lt;/b&gt; {note}.</source>
        <translation>. &lt;b&gt;Notă:&lt;/b&gt; {note}.</translation>
    </message>
    <message>
        <source>{total} in all</source>
        <translation>{total} în total</translation>
    </message>
    <message>
        <source>The replay assumed a private pool the trace does not name (a MemPool or CUDA graph freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room; each replay keeps that pool&apos;s memory apart.</source>
        <translation>Rejucarea a presupus un pool privat pe care jurnalul de evenimente nu îl numește (un MemPool sau un graf CUDA eliberat înainte de instantaneu), dedus din {n} {n:segment|segmente|de segmente} ({sizes}) pe care alocatorul înregistrat le-a creat deși pool-ul implicit avea loc; fiecare rejucare ține separat memoria acelui pool.</translation>
    </message>
    <message>
        <source>The replay assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room; each replay keeps those pools&apos; memory apart.</source>
        <translation>Rejucarea a presupus {pools} pool-uri private pe care jurnalul de evenimente nu le numește (MemPool-uri sau grafuri CUDA eliberate înainte de instantaneu), deduse din {n} {n:segment|segmente|de segmente} ({sizes}) pe care alocatorul înregistrat le-a creat deși pool-ul implicit avea loc; fiecare rejucare ține separat memoria acelor pool-uri.</translation>
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
        <source>{run} {kind}</source>
        <translation>{kind} {run}</translation>
    </message>
    <message>
        <source>the event both maps show</source>
        <translation>evenimentul arătat de ambele hărți</translation>
    </message>
    <message>
        <source>click or drag the timeline, or use Left/Right, PageUp/PageDown, Home/End, to travel both runs</source>
        <translation>faceți clic sau trageți pe cronologie ori folosiți Stânga/Dreapta, PageUp/PageDown, Home/End pentru a muta ambele rulări</translation>
    </message>
</context>
</TS>
