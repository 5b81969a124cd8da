<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>ClusterFolderDialog</name>
    <message>
        <source>Open Cluster Folder</source>
        <translation>Ouvrir un dossier de cluster</translation>
    </message>
    <message>
        <source>/shared/run42/snapshots (as the workers see it)</source>
        <translation>/shared/run42/snapshots (tel que le voient les nœuds de calcul)</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Parcourir...</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>Dossier&#x202f;:</translation>
    </message>
    <message>
        <source>Dask scheduler:</source>
        <translation>Planificateur Dask&#x202f;:</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ouvrir</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>A folder of rank snapshots</source>
        <translation>Un dossier de snapshots par rang</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>free (cached)</source>
        <translation>libre (en cache)</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>segments</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocs</translation>
    </message>
    <message>
        <source>site</source>
        <translation>site</translation>
    </message>
    <message>
        <source>added</source>
        <translation>ajoutés</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>retirés</translation>
    </message>
    <message>
        <source>Show added and removed</source>
        <translation>Montrer les blocs ajoutés et retirés</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sites that changed&lt;/b&gt; (click one: its blocks on both maps)</source>
        <translation>&lt;b&gt;Sites qui ont changé&lt;/b&gt; (cliquez sur l&apos;un d&apos;eux&#x202f;: ses blocs sur les deux cartes)</translation>
    </message>
    <message>
        <source>A event</source>
        <translation>événement A</translation>
    </message>
    <message>
        <source>B event</source>
        <translation>événement B</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>mémoire ({unit})</translation>
    </message>
    <message>
        <source>A&apos;s trace event (B aligned)</source>
        <translation>événement de la trace de A (B aligné)</translation>
    </message>
    <message>
        <source>the moments both maps show</source>
        <translation>les moments que montrent les deux cartes</translation>
    </message>
    <message>
        <source>click or drag the timeline (or Left/Right) to travel both; B&apos;s event box moves B alone</source>
        <translation>cliquez ou faites glisser sur la chronologie (ou Gauche/Droite) pour déplacer les deux&#x202f;; la case d&apos;événement de B ne déplace que B</translation>
    </message>
    <message>
        <source>comparing A at {a} with B at {b}...</source>
        <translation>comparaison de A à {a} avec B à {b}...</translation>
    </message>
    <message>
        <source>GPU {device}, {event}</source>
        <translation>GPU {device}, {event}</translation>
    </message>
    <message>
        <source>allocated blocks: &lt;b&gt;{added}&lt;/b&gt; added ({added_bytes}), &lt;b&gt;{removed}&lt;/b&gt; removed ({removed_bytes}), {kept} kept</source>
        <translation>blocs alloués&#x202f;: &lt;b&gt;{added}&lt;/b&gt; ajoutés ({added_bytes}), &lt;b&gt;{removed}&lt;/b&gt; retirés ({removed_bytes}), {kept} conservés</translation>
    </message>
</context>
<context>
    <name>RankCurves</name>
    <message>
        <source>(none in {0} rank summaries: summarize them with --pin)</source>
        <translation>(absent de {0} résumés de rangs&#x202f;: résumez-les avec --pin)</translation>
    </message>
</context>
<context>
    <name>RankFolder</name>
    <message>
        <source>not enough memory to load it ({path})</source>
        <translation>pas assez de mémoire pour le charger ({path})</translation>
    </message>
    <message>
        <source>cannot read: {error} ({path})</source>
        <translation>lecture impossible&#x202f;: {error} ({path})</translation>
    </message>
    <message>
        <source>a loop of symbolic links ({path})</source>
        <translation>une boucle de liens symboliques ({path})</translation>
    </message>
    <message>
        <source>a symbolic link to {target}, which does not exist ({path})</source>
        <translation>un lien symbolique vers {target}, qui n&apos;existe pas ({path})</translation>
    </message>
    <message>
        <source>the process reading it was killed by {signal} ({path})</source>
        <translation>le processus qui le lisait a été tué par {signal} ({path})</translation>
    </message>
    <message>
        <source>the process reading it ended without an answer (exit status {status}) ({path})</source>
        <translation>le processus qui le lisait s&apos;est terminé sans réponse (code de sortie {status}) ({path})</translation>
    </message>
    <message>
        <source>the process reading it stopped ({error}) ({path})</source>
        <translation>le processus qui le lisait s&apos;est arrêté ({error}) ({path})</translation>
    </message>
    <message>
        <source>every Dask worker that read it died (KilledWorker) ({path})</source>
        <translation>chaque worker Dask qui l&apos;a lu est mort (KilledWorker) ({path})</translation>
    </message>
    <message>
        <source>the Dask scheduler went away before it was read ({name}) ({path})</source>
        <translation>l&apos;ordonnanceur Dask a disparu avant qu&apos;il soit lu ({name}) ({path})</translation>
    </message>
    <message>
        <source>the Dask scheduler went away before it was read ({path})</source>
        <translation>l&apos;ordonnanceur Dask a disparu avant qu&apos;il soit lu ({path})</translation>
    </message>
    <message>
        <source>the Dask task reading it failed ({error}) ({path})</source>
        <translation>la tâche Dask qui le lisait a échoué ({error}) ({path})</translation>
    </message>
</context>
<context>
    <name>RankPins</name>
    <message>
        <source>site</source>
        <translation>site d&apos;appel</translation>
    </message>
    <message>
        <source>category</source>
        <translation>catégorie</translation>
    </message>
    <message>
        <source>search</source>
        <translation>recherche</translation>
    </message>
    <message>
        <source>a site (file:line:function), a category, or text in a frame of the stack</source>
        <translation>un site (fichier:ligne:fonction), une catégorie ou un texte d&apos;un cadre de la pile</translation>
    </message>
    <message>
        <source>Pin on every rank</source>
        <translation>Épingler sur tous les rangs</translation>
    </message>
    <message>
        <source>draw the bytes it holds over each rank&apos;s trace; the summaries are read again for it</source>
        <translation>trace les octets qu&apos;il occupe sur l&apos;historique de chaque rang&#x202f;; les résumés sont relus pour cela</translation>
    </message>
    <message>
        <source>pin:</source>
        <translation>épingle&#x202f;:</translation>
    </message>
    <message>
        <source>stack holds &apos;{0}&apos;</source>
        <translation>la pile contient «&#x202f;{0}&#x202f;»</translation>
    </message>
    <message>
        <source>pick a site the ranks name at their peaks, or type one</source>
        <translation>choisissez un site nommé par les rangs à leur pic, ou saisissez-en un</translation>
    </message>
    <message>
        <source>pick a category</source>
        <translation>choisissez une catégorie</translation>
    </message>
    <message>
        <source>text in a frame of the stack, e.g. loss.py</source>
        <translation>texte d&apos;un cadre de la pile, p. ex. loss.py</translation>
    </message>
    <message>
        <source>unpin it from every rank</source>
        <translation>le désépingler de tous les rangs</translation>
    </message>
</context>
<context>
    <name>RanksView</name>
    <message>
        <source>high res.</source>
        <translation>rés. élevée</translation>
    </message>
    <message>
        <source>high alloc.</source>
        <translation>alloc. élevée</translation>
    </message>
    <message>
        <source>OOM on device {devices}</source>
        <translation>OOM sur le périphérique {devices}</translation>
    </message>
    <message>
        <source>rank {rank}</source>
        <translation>rang {rank}</translation>
    </message>
    <message>
        <source>rank {rank} step {step}</source>
        <translation>rang {rank}, pas {step}</translation>
    </message>
    <message>
        <source>reserved ({unit}) over each rank&apos;s events, on one scale</source>
        <translation>réservé ({unit}) au fil des événements de chaque rang, sur une même échelle</translation>
    </message>
    <message>
        <source>; the first {shown} of {files} files (the table lists them all)</source>
        <translation>&#x202f;; les {shown} premiers fichiers sur {files} (le tableau les liste tous)</translation>
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
        <translation>fichier</translation>
    </message>
    <message>
        <source>device</source>
        <translation>périphérique</translation>
    </message>
    <message>
        <source>peak reserved</source>
        <translation>pic réservé</translation>
    </message>
    <message>
        <source>peak allocated</source>
        <translation>pic alloué</translation>
    </message>
    <message>
        <source>final reserved</source>
        <translation>réservé final</translation>
    </message>
    <message>
        <source>final allocated</source>
        <translation>alloué final</translation>
    </message>
    <message>
        <source>frag. at peak</source>
        <translation>frag. au pic</translation>
    </message>
    <message>
        <source>flags</source>
        <translation>signalements</translation>
    </message>
    <message>
        <source>a peak whose modified z-score among its step and stage is above {z}</source>
        <translation>un pic dont le score z modifié, parmi ceux de son pas et de son étage, dépasse {z}</translation>
    </message>
    <message>
        <source> over {seconds} s</source>
        <translation> sur {seconds} s</translation>
    </message>
    <message>
        <source> over {ms} ms</source>
        <translation> sur {ms} ms</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octets)</translation>
    </message>
    <message>
        <source>rank {rank}: from the file&apos;s name or its metadata</source>
        <translation>rang {rank}&#x202f;: d&apos;après le nom du fichier ou ses métadonnées</translation>
    </message>
    <message>
        <source>rank {rank}: the device index (nothing names it)</source>
        <translation>rang {rank}&#x202f;: l&apos;indice du périphérique (rien ne le nomme)</translation>
    </message>
    <message>
        <source>the start</source>
        <translation>le début</translation>
    </message>
    <message>
        <source>event {event}</source>
        <translation>l&apos;événement {event}</translation>
    </message>
    <message>
        <source>device {device}: the one that reserved the most at its peak</source>
        <translation>périphérique {device}&#x202f;: celui qui a le plus réservé à son pic</translation>
    </message>
    <message>
        <source>peak reserved {size} (at {at} of {events})</source>
        <translation>pic réservé {size} (à {at} sur {events})</translation>
    </message>
    <message>
        <source>peak allocated {size}</source>
        <translation>pic alloué {size}</translation>
    </message>
    <message>
        <source>trace: {events} {events:event|events}{span}</source>
        <translation>trace&#x202f;: {events} {events:événement|événements}{span}</translation>
    </message>
    <message>
        <source>flags: {flags} (high: {words})</source>
        <translation>signalements&#x202f;: {flags} (élevé&#x202f;: {words})</translation>
    </message>
    <message>
        <source>double-click to open it at its peak</source>
        <translation>double-cliquez pour l&apos;ouvrir à son pic</translation>
    </message>
    <message>
        <source>median</source>
        <translation>médiane</translation>
    </message>
    <message>
        <source>peak reserved ({unit})</source>
        <translation>pic réservé ({unit})</translation>
    </message>
    <message>
        <source>rank:step</source>
        <translation>rang:pas</translation>
    </message>
    <message>
        <source>Open a folder of per-rank snapshots.</source>
        <translation>Ouvrez un dossier de snapshots par rang.</translation>
    </message>
    <message>
        <source>%v of %m files</source>
        <translation>%v fichiers sur %m</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ouvrir</translation>
    </message>
    <message>
        <source>Open the selected file (or double-click its row, or click its bar)</source>
        <translation>Ouvrir le fichier sélectionné (ou double-cliquez sur sa ligne, ou cliquez sur sa barre)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>Compare the two selected files block by block, each at its peak of reserved</source>
        <translation>Comparer les deux fichiers sélectionnés bloc par bloc, chacun à son pic de mémoire réservée</translation>
    </message>
    <message>
        <source>Peaks</source>
        <translation>Pics</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Courbes</translation>
    </message>
    <message>
        <source>Every rank&apos;s reserved memory over its events, small plots on one scale</source>
        <translation>La mémoire réservée de chaque rang au fil de ses événements, petits graphiques sur une même échelle</translation>
    </message>
    <message>
        <source>Reading the snapshots in {folder} ...</source>
        <translation>Lecture des snapshots de {folder}...</translation>
    </message>
    <message>
        <source>Reading {folder}: {done} of {total} files ...</source>
        <translation>Lecture de {folder}&#x202f;: {done} fichiers sur {total}...</translation>
    </message>
    <message>
        <source>Could not read the folder: {message}</source>
        <translation>Impossible de lire le dossier&#x202f;: {message}</translation>
    </message>
    <message>
        <source>unreadable: “{error}”</source>
        <translation>illisible&#x202f;: «&#x202f;{error}&#x202f;»</translation>
    </message>
    <message>
        <source>and {n} more (see the tooltip)</source>
        <translation>et {n} de plus (voir l&apos;infobulle)</translation>
    </message>
    <message>
        <source>reading on a cluster needs Dask: pip install &apos;gpumem-gui[cluster]&apos; (or: pip install &apos;dask[distributed]&apos;)</source>
        <translation>la lecture sur un cluster a besoin de Dask&#x202f;: pip install &apos;gpumem-gui[cluster]&apos; (ou&#x202f;: pip install &apos;dask[distributed]&apos;)</translation>
    </message>
    <message>
        <source>cannot reach the Dask scheduler {scheduler}: {error}</source>
        <translation>impossible de joindre le planificateur Dask {scheduler}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>No snapshot files in {folder}.</source>
        <translation>Aucun fichier de snapshot dans {folder}.</translation>
    </message>
    <message>
        <source>{folder}: {files} {files:file|files}, {ranks} {ranks:rank|ranks}.</source>
        <translation>{folder}&#x202f;: {files} {files:fichier|fichiers}, {ranks} {ranks:rang|rangs}.</translation>
    </message>
    <message>
        <source>Out of memory on rank {ranks} (red).</source>
        <translation>Mémoire épuisée sur le rang {ranks} (rouge).</translation>
    </message>
    <message>
        <source>Outliers ({words}): rank {ranks} (orange).</source>
        <translation>Valeurs aberrantes ({words})&#x202f;: rang {ranks} (orange).</translation>
    </message>
    <message>
        <source>{files} {files:file|files} could not be read.</source>
        <translation>{files} {files:fichier n&apos;a pas pu être lu|fichiers n&apos;ont pas pu être lus}.</translation>
    </message>
</context>
<context>
    <name>SnapshotError</name>
    <message>
        <source>not a folder</source>
        <translation>pas un dossier</translation>
    </message>
    <message>
        <source>not a summary file ({error})</source>
        <translation>pas un fichier de résumé ({error})</translation>
    </message>
    <message>
        <source>not a summary file (not a JSON object)</source>
        <translation>pas un fichier de résumé (pas un objet JSON)</translation>
    </message>
    <message>
        <source>a summary of version {found}, not {version}: summarize it again</source>
        <translation>un résumé de version {found}, pas {version}&#x202f;: résumez-le à nouveau</translation>
    </message>
</context>
<context>
    <name>WhatIfDialog</name>
    <message>
        <source>What if...</source>
        <translation>Et si...</translation>
    </message>
    <message>
        <source>as recorded</source>
        <translation>comme enregistré</translation>
    </message>
    <message>
        <source>as recorded (MiB, &gt;= 20)</source>
        <translation>comme enregistré (Mio, &gt;= 20)</translation>
    </message>
    <message>
        <source>as recorded, e.g. 4 or [256:1,512:2,&gt;:4]</source>
        <translation>comme enregistré, p. ex. 4 ou [256:1,512:2,&gt;:4]</translation>
    </message>
    <message>
        <source>as recorded, in (0, 1); needs a memory fraction</source>
        <translation>comme enregistré, dans ]0, 1[&#x202f;; nécessite une fraction de mémoire</translation>
    </message>
    <message>
        <source>none, in (0, 1]</source>
        <translation>aucune, dans ]0, 1]</translation>
    </message>
    <message>
        <source>what an OOM saw, else 80GiB</source>
        <translation>ce qu&apos;a vu un OOM, sinon 80Gio</translation>
    </message>
    <message>
        <source>device capacity</source>
        <translation>capacité du périphérique</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Rejouer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>WhatIfView</name>
    <message>
        <source>recorded</source>
        <translation>enregistré</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>rejoué</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>alloué</translation>
    </message>
    <message>
        <source>memory ({unit})</source>
        <translation>mémoire ({unit})</translation>
    </message>
    <message>
        <source>trace event</source>
        <translation>événement de la trace</translation>
    </message>
    <message>
        <source>never</source>
        <translation>jamais</translation>
    </message>
    <message>
        <source>first at event {event}</source>
        <translation>d&apos;abord à l&apos;événement {event}</translation>
    </message>
    <message>
        <source>recorded settings</source>
        <translation>réglages enregistrés</translation>
    </message>
    <message>
        <source>&lt;b&gt;{replayed}&lt;/b&gt; on {capacity}: peak reserved {peak_before} &amp;rarr; {peak_after} (&lt;b&gt;{diff}&lt;/b&gt;), OOMs {ooms_before} &amp;rarr; {ooms_after}, cudaMalloc/map calls {calls_before} &amp;rarr; {calls_after}, worst fragmentation {frag_before} &amp;rarr; {frag_after}; the replay differs from the recording {where}</source>
        <translation>&lt;b&gt;{replayed}&lt;/b&gt; sur {capacity}&#x202f;: pic réservé {peak_before} &amp;rarr; {peak_after} (&lt;b&gt;{diff}&lt;/b&gt;), OOM {ooms_before} &amp;rarr; {ooms_after}, appels cudaMalloc/map {calls_before} &amp;rarr; {calls_after}, pire fragmentation {frag_before} &amp;rarr; {frag_after}&#x202f;; la réexécution diffère de l&apos;enregistrement&#x202f;: {where}</translation>
    </message>
    <message>
        <source>. &lt;b&gt;Note:&lt;/b&gt; {note}.</source>
        <translation>. &lt;b&gt;Remarque&#x202f;:&lt;/b&gt; {note}.</translation>
    </message>
    <message>
        <source>{total} in all</source>
        <translation>{total} en tout</translation>
    </message>
    <message>
        <source>The replay assumed a private pool the trace does not name (a MemPool or CUDA graph freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room; each replay keeps that pool&apos;s memory apart.</source>
        <translation>La réexécution a supposé un pool privé que la trace ne nomme pas (un MemPool ou un graphe CUDA libéré avant l&apos;instantané), déduit de {n} {n:segment|segments} ({sizes}) que l&apos;allocateur enregistré a créés alors que le pool par défaut avait de la place&#x202f;; chaque réexécution garde la mémoire de ce pool à part.</translation>
    </message>
    <message>
        <source>The replay assumed {pools} private pools the trace does not name (MemPools or CUDA graphs freed before the snapshot), inferred from {n} {n:segment|segments} ({sizes}) the recorded allocator made although the default pool had room; each replay keeps those pools&apos; memory apart.</source>
        <translation>La réexécution a supposé {pools} pools privés que la trace ne nomme pas (des MemPool ou des graphes CUDA libérés avant l&apos;instantané), déduits de {n} {n:segment|segments} ({sizes}) que l&apos;allocateur enregistré a créés alors que le pool par défaut avait de la place&#x202f;; chaque réexécution garde la mémoire de ces pools à part.</translation>
    </message>
    <message>
        <source>before the first event</source>
        <translation>avant le premier événement</translation>
    </message>
    <message>
        <source>after event {event} of {events}</source>
        <translation>après l&apos;événement {event} sur {events}</translation>
    </message>
    <message>
        <source>{run} {kind}</source>
        <translation>{kind} {run}</translation>
    </message>
    <message>
        <source>the event both maps show</source>
        <translation>l&apos;événement que montrent les deux cartes</translation>
    </message>
    <message>
        <source>click or drag the timeline, or use Left/Right, PageUp/PageDown, Home/End, to travel both runs</source>
        <translation>cliquez ou faites glisser sur la chronologie, ou utilisez Gauche/Droite, PageUp/PageDown, Début/Fin, pour déplacer les deux exécutions</translation>
    </message>
</context>
</TS>
