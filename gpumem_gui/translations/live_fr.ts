<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AttachDialog</name>
    <message>
        <source>To watch a job&apos;s allocator, start it with the probe:
    python -m gpumem_gui.probe train.py [args...]
or add two lines to it:
    import gpumem_gui.probe
    gpumem_gui.probe.start()
No GPU here? Try `gpumem-gui demo-job`, a simulated job with the real probe.</source>
        <translation>Pour suivre l&apos;allocateur d&apos;une tâche, lancez-la avec la sonde&#x202f;:
    python -m gpumem_gui.probe train.py [args...]
ou ajoutez-y deux lignes&#x202f;:
    import gpumem_gui.probe
    gpumem_gui.probe.start()
Pas de GPU ici&#x202f;? Essayez `gpumem-gui demo-job`, une tâche simulée avec la vraie sonde.</translation>
    </message>
    <message>
        <source>Attach to a local job</source>
        <translation>S&apos;attacher à une tâche locale</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>mémoire GPU</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>sonde</translation>
    </message>
    <message>
        <source>command</source>
        <translation>commande</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Attach</source>
        <translation>Attacher</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>looking for GPU processes and probes...</source>
        <translation>recherche des processus GPU et des sondes...</translation>
    </message>
    <message>
        <source>The local jobs could not be listed: {message}</source>
        <translation>Impossible de lister les tâches locales&#x202f;: {message}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>&#x202f;; </translation>
    </message>
    <message>
        <source>GPU processes from NVML, and every local job that runs a probe.</source>
        <translation>Les processus GPU vus par NVML, et chaque tâche locale qui exécute une sonde.</translation>
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
        <source>No local GPU process and no probe found.</source>
        <translation>Aucun processus GPU local ni aucune sonde trouvés.</translation>
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
        <translation>Les GPU dans l&apos;ordre de NVML (bus PCI)&#x202f;; CUDA ne les numérote de même qu&apos;avec CUDA_DEVICE_ORDER=PCI_BUS_ID.</translation>
    </message>
    <message>
        <source>name / command</source>
        <translation>nom / commande</translation>
    </message>
    <message>
        <source>The GPU&apos;s name; for a process its command line (from psutil).</source>
        <translation>Le nom du GPU&#x202f;; pour un processus, sa ligne de commande (d&apos;après psutil).</translation>
    </message>
    <message>
        <source>used</source>
        <translation>utilisé</translation>
    </message>
    <message>
        <source>Device memory in use; for a process, what NVML charges to it (its CUDA context included).</source>
        <translation>Mémoire du périphérique utilisée&#x202f;; pour un processus, ce que NVML lui attribue (son contexte CUDA compris).</translation>
    </message>
    <message>
        <source>free</source>
        <translation>libre</translation>
    </message>
    <message>
        <source>Device memory nobody holds.</source>
        <translation>Mémoire du périphérique que personne ne détient.</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>réservé</translation>
    </message>
    <message>
        <source>Memory the driver and firmware set aside (NVML memory info v2). n/a where the driver only has v1: then &apos;used&apos; includes it, which is why an idle GPU seems to use hundreds of MiB.</source>
        <translation>Mémoire que le pilote et le firmware mettent de côté (NVML memory info v2). n/a si le pilote n&apos;a que la v1&#x202f;: «&#x202f;utilisé&#x202f;» l&apos;inclut alors, c&apos;est pourquoi un GPU inactif semble utiliser des centaines de Mio.</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>The device&apos;s memory.</source>
        <translation>La mémoire du périphérique.</translation>
    </message>
    <message>
        <source>GPU util</source>
        <translation>util. GPU</translation>
    </message>
    <message>
        <source>Fraction of the last sample period during which a kernel was running on the GPU.</source>
        <translation>Fraction de la dernière période d&apos;échantillonnage pendant laquelle un noyau s&apos;exécutait sur le GPU.</translation>
    </message>
    <message>
        <source>memory util</source>
        <translation>util. mémoire</translation>
    </message>
    <message>
        <source>temp</source>
        <translation>temp.</translation>
    </message>
    <message>
        <source>GPU core temperature.</source>
        <translation>Température du cœur du GPU.</translation>
    </message>
    <message>
        <source>user</source>
        <translation>utilisateur</translation>
    </message>
    <message>
        <source>Owner of the process (from psutil); n/a when it has ended or may not be read.</source>
        <translation>Propriétaire du processus (d&apos;après psutil)&#x202f;; n/a s&apos;il s&apos;est terminé ou ne peut être lu.</translation>
    </message>
    <message>
        <source>UUID / kind</source>
        <translation>UUID / type</translation>
    </message>
    <message>
        <source>The GPU&apos;s UUID (stable across reboots, unlike indices); for a process its context kind.</source>
        <translation>L&apos;UUID du GPU (stable d&apos;un redémarrage à l&apos;autre, contrairement aux indices)&#x202f;; pour un processus, le type de son contexte.</translation>
    </message>
    <message>
        <source>refresh every</source>
        <translation>actualiser toutes les</translation>
    </message>
    <message>
        <source>How often NVML is read. NVML&apos;s own utilisation samples cover 1/6 s to 1 s.</source>
        <translation>Fréquence de lecture de NVML. Les échantillons d&apos;utilisation de NVML couvrent de 1/6 s à 1 s.</translation>
    </message>
    <message>
        <source>NVML: not polled yet</source>
        <translation>NVML&#x202f;: pas encore interrogé</translation>
    </message>
    <message>
        <source>NVML polling stopped: {message}</source>
        <translation>L&apos;interrogation de NVML s&apos;est arrêtée&#x202f;: {message}</translation>
    </message>
    <message>
        <source>NVIDIA driver {driver}: {n} {n:GPU|GPUs}; read at {time} in {ms} ms</source>
        <translation>Pilote NVIDIA {driver}&#x202f;: {n} {n:GPU|GPU}&#x202f;; lu à {time} en {ms} ms</translation>
    </message>
    <message>
        <source>NVML: checked at {time}</source>
        <translation>NVML&#x202f;: vérifié à {time}</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octets)</translation>
    </message>
    <message>
        <source>This driver has only memory info v1: &apos;used&apos; includes driver-reserved memory.</source>
        <translation>Ce pilote n&apos;a que memory info v1&#x202f;: «&#x202f;utilisé&#x202f;» inclut la mémoire réservée par le pilote.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>&#x202f;; </translation>
    </message>
    <message>
        <source>no processes</source>
        <translation>aucun processus</translation>
    </message>
    <message>
        <source>NVML lists no process on this GPU.</source>
        <translation>NVML ne liste aucun processus sur ce GPU.</translation>
    </message>
    <message>
        <source>Memory utilisation is the fraction of the last sample period (1/6 s to 1 s) during which device memory was read or written: bandwidth busy time, not how full the memory is. Fullness is used / total.</source>
        <translation>L&apos;utilisation de la mémoire est la part de la dernière période d&apos;échantillonnage (de 1/6 s à 1 s) pendant laquelle la mémoire du périphérique a été lue ou écrite&#x202f;: le temps d&apos;occupation de la bande passante, pas le remplissage de la mémoire. Le remplissage, c&apos;est utilisée / totale.</translation>
    </message>
</context>
<context>
    <name>LiveGrid</name>
    <message>
        <source>Job</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>Réservé</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Alloué</translation>
    </message>
    <message>
        <source>Peak reserved</source>
        <translation>Pic réservé</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>Snapshots</translation>
    </message>
    <message>
        <source>live</source>
        <translation>en cours</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>terminé</translation>
    </message>
    <message>
        <source>detached</source>
        <translation>détaché</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <source>reserved ({unit})</source>
        <translation>réservé ({unit})</translation>
    </message>
    <message>
        <source>seconds since the first figures</source>
        <translation>secondes depuis les premiers chiffres</translation>
    </message>
    <message>
        <source>Double-click a job to go to its tab. Reserved, allocated and OOMs are the allocator&apos;s own figures, summed over each job&apos;s GPUs.</source>
        <translation>Double-cliquez sur une tâche pour aller à son onglet. Réservé, alloué et les OOM sont les chiffres de l&apos;allocateur lui-même, additionnés sur les GPU de chaque tâche.</translation>
    </message>
    <message>
        <source>No job yet: attach to the jobs (Live &gt; Attach...) and they are listed here.</source>
        <translation>Aucune tâche pour l&apos;instant&#x202f;: attachez-vous aux tâches (Live &gt; Attach...) et elles s&apos;affichent ici.</translation>
    </message>
    <message>
        <source> (forwarded: a job on another machine)</source>
        <translation> (redirigé&#x202f;: une tâche sur une autre machine)</translation>
    </message>
    <message>
        <source>the allocator&apos;s own peak counter: a peak between two refreshes shows here</source>
        <translation>le compteur de pic de l&apos;allocateur lui-même&#x202f;: un pic entre deux actualisations apparaît ici</translation>
    </message>
    <message>
        <source>out-of-memory errors in the job, since it started</source>
        <translation>erreurs de mémoire épuisée dans la tâche, depuis son lancement</translation>
    </message>
    <message>
        <source>snapshots received</source>
        <translation>snapshots reçus</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octets)</translation>
    </message>
</context>
<context>
    <name>LiveSession</name>
    <message>
        <source>the probe sent an unreadable snapshot: {error}</source>
        <translation>la sonde a envoyé un snapshot illisible&#x202f;: {error}</translation>
    </message>
    <message>
        <source>nothing to save yet: no snapshot has arrived</source>
        <translation>rien à enregistrer pour l&apos;instant&#x202f;: aucun snapshot n&apos;est arrivé</translation>
    </message>
    <message>
        <source>cannot save {path}: {error}</source>
        <translation>impossible d&apos;enregistrer {path}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>saved {path}</source>
        <translation>{path} enregistré</translation>
    </message>
    <message>
        <source>the job (pid {pid}) closed its probe at {time}</source>
        <translation>le job (pid {pid}) a fermé sa sonde à {time}</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has exited at {time}</source>
        <translation>le job (pid {pid}) s&apos;est terminé à {time}</translation>
    </message>
</context>
<context>
    <name>LiveView</name>
    <message>
        <source>requested</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>what the program asked for (requested_bytes)</source>
        <translation>ce que le programme a demandé (requested_bytes)</translation>
    </message>
    <message>
        <source>rounding</source>
        <translation>arrondi</translation>
    </message>
    <message>
        <source>allocated - requested: the allocator&apos;s rounding of each request</source>
        <translation>alloué - demandé&#x202f;: l&apos;arrondi de chaque demande par l&apos;allocateur</translation>
    </message>
    <message>
        <source>cached free</source>
        <translation>libre en cache</translation>
    </message>
    <message>
        <source>reserved - allocated: cached by PyTorch, free for it, unusable by others</source>
        <translation>réservé - alloué&#x202f;: en cache chez PyTorch, libre pour lui, inutilisable par les autres</translation>
    </message>
    <message>
        <source>outside PyTorch</source>
        <translation>hors PyTorch</translation>
    </message>
    <message>
        <source>NVML&apos;s used - reserved: CUDA context, cuBLAS/NCCL workspaces, other libraries</source>
        <translation>utilisé selon NVML - réservé&#x202f;: contexte CUDA, espaces de travail cuBLAS/NCCL, autres bibliothèques</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octets)</translation>
    </message>
    <message>
        <source>waiting for the first figures</source>
        <translation>en attente des premiers chiffres</translation>
    </message>
    <message>
        <source>n/a (no NVML)</source>
        <translation>n/a (pas de NVML)</translation>
    </message>
    <message>
        <source>NVML used by the process: {size}</source>
        <translation>NVML, utilisé par le processus&#x202f;: {size}</translation>
    </message>
    <message>
        <source>  of which outside PyTorch (context, libraries): {size}</source>
        <translation>  dont hors PyTorch (contexte, bibliothèques)&#x202f;: {size}</translation>
    </message>
    <message>
        <source>  PyTorch reserved: {size}</source>
        <translation>  réservé par PyTorch&#x202f;: {size}</translation>
    </message>
    <message>
        <source>    of which allocated: {size}</source>
        <translation>    dont alloué&#x202f;: {size}</translation>
    </message>
    <message>
        <source>      of which requested: {size}</source>
        <translation>      dont demandé&#x202f;: {size}</translation>
    </message>
    <message>
        <source>peak allocated (allocator counter): {size}</source>
        <translation>pic alloué (compteur de l&apos;allocateur)&#x202f;: {size}</translation>
    </message>
    <message>
        <source>device: {used} used of {total} (all processes)</source>
        <translation>périphérique&#x202f;: {used} utilisés sur {total} (tous les processus)</translation>
    </message>
    <message>
        <source>waiting for the first figures...</source>
        <translation>en attente des premiers chiffres...</translation>
    </message>
    <message>
        <source>{name}: n/a</source>
        <translation>{name}&#x202f;: n/a</translation>
    </message>
    <message>
        <source>{name}: {size}</source>
        <translation>{name}&#x202f;: {size}</translation>
    </message>
    <message>
        <source>- - peak allocated {size}</source>
        <translation>- - pic alloué {size}</translation>
    </message>
    <message>
        <source>seconds since attach</source>
        <translation>secondes depuis l&apos;attachement</translation>
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
        <source>peak allocated (counter)</source>
        <translation>pic alloué (compteur)</translation>
    </message>
    <message>
        <source>waiting for the first snapshot...</source>
        <translation>en attente du premier snapshot...</translation>
    </message>
    <message>
        <source>simulated job</source>
        <translation>tâche simulée</translation>
    </message>
    <message>
        <source>rank {rank} pid {pid}</source>
        <translation>rang {rank} pid {pid}</translation>
    </message>
    <message>
        <source>pid {pid}</source>
        <translation>pid {pid}</translation>
    </message>
    <message>
        <source> on another machine, via {path}</source>
        <translation> sur une autre machine, via {path}</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Snapshot now</source>
        <translation>Snapshot maintenant</translation>
    </message>
    <message>
        <source>Save last snapshot...</source>
        <translation>Enregistrer le dernier snapshot...</translation>
    </message>
    <message>
        <source>Save snapshot now...</source>
        <translation>Enregistrer un snapshot maintenant...</translation>
    </message>
    <message>
        <source>Mark...</source>
        <translation>Repère...</translation>
    </message>
    <message>
        <source>Put a named mark in the job&apos;s trace (shown on the timeline)</source>
        <translation>Placer un repère nommé dans la trace de la tâche (affiché sur la chronologie)</translation>
    </message>
    <message>
        <source>Stop recording</source>
        <translation>Arrêter l&apos;enregistrement</translation>
    </message>
    <message>
        <source>Record...</source>
        <translation>Enregistrer...</translation>
    </message>
    <message>
        <source>Write every snapshot and stats sample of this session to a folder</source>
        <translation>Écrire chaque snapshot et chaque échantillon de statistiques de cette session dans un dossier</translation>
    </message>
    <message>
        <source>Detach</source>
        <translation>Détacher</translation>
    </message>
    <message>
        <source>snapshot {number} at {time}: {size}, {events} trace events, fetched and indexed in {ms} ms</source>
        <translation>snapshot {number} à {time}&#x202f;: {size}, {events} événements de trace, récupéré et indexé en {ms} ms</translation>
    </message>
    <message>
        <source>; its snapshot is in the list below (double-click to open)</source>
        <translation>&#x202f;; son snapshot est dans la liste ci-dessous (double-cliquez pour l&apos;ouvrir)</translation>
    </message>
    <message>
        <source>Out of memory in the job at {time} (OOM #{ordinal}): a request of {size} on GPU {device} failed</source>
        <translation>Mémoire épuisée dans la tâche à {time} (OOM n°{ordinal})&#x202f;: une demande de {size} sur le GPU {device} a échoué</translation>
    </message>
    <message>
        <source>The live session stopped: {message}</source>
        <translation>La session en direct s&apos;est arrêtée&#x202f;: {message}</translation>
    </message>
    <message>
        <source>{why}. The last state stays on screen; Save snapshot now writes it to a file.</source>
        <translation>{why}. Le dernier état reste à l&apos;écran&#x202f;; Enregistrer un snapshot maintenant l&apos;écrit dans un fichier.</translation>
    </message>
    <message>
        <source>Save snapshot</source>
        <translation>Enregistrer le snapshot</translation>
    </message>
    <message>
        <source>Snapshots (*.pickle)</source>
        <translation>Snapshots (*.pickle)</translation>
    </message>
    <message>
        <source>Mark</source>
        <translation>Repère</translation>
    </message>
    <message>
        <source>Name of the mark:</source>
        <translation>Nom du repère&#x202f;:</translation>
    </message>
    <message>
        <source>marked {name}</source>
        <translation>repère {name} placé</translation>
    </message>
    <message>
        <source>Record the session into</source>
        <translation>Enregistrer la session dans</translation>
    </message>
    <message>
        <source>recording into {folder}</source>
        <translation>enregistrement dans {folder}</translation>
    </message>
</context>
<context>
    <name>Nvml</name>
    <message>
        <source>NVIDIA driver not found: NVML is unavailable (no GPU monitoring)</source>
        <translation>Pilote NVIDIA introuvable&#x202f;: NVML est indisponible (pas de suivi des GPU)</translation>
    </message>
    <message>
        <source>NVIDIA driver is installed but not loaded: NVML is unavailable (no GPU monitoring)</source>
        <translation>Le pilote NVIDIA est installé mais pas chargé&#x202f;: NVML est indisponible (pas de suivi des GPU)</translation>
    </message>
    <message>
        <source>NVIDIA driver and NVML library versions differ (reboot or reload the driver): no GPU monitoring</source>
        <translation>Les versions du pilote NVIDIA et de la bibliothèque NVML diffèrent (redémarrez ou rechargez le pilote)&#x202f;: pas de suivi des GPU</translation>
    </message>
    <message>
        <source>nvidia-ml-py (module pynvml) is not installed: NVML is unavailable (no GPU monitoring)</source>
        <translation>nvidia-ml-py (module pynvml) n&apos;est pas installé&#x202f;: NVML est indisponible (pas de suivi des GPU)</translation>
    </message>
    <message>
        <source>NVML could not start ({error}): no GPU monitoring</source>
        <translation>NVML n&apos;a pas pu démarrer ({error})&#x202f;: pas de suivi des GPU</translation>
    </message>
    <message>
        <source>NVML could not count the GPUs ({error})</source>
        <translation>NVML n&apos;a pas pu compter les GPU ({error})</translation>
    </message>
    <message>
        <source>reading failed: {error}</source>
        <translation>la lecture a échoué&#x202f;: {error}</translation>
    </message>
    <message>
        <source>{kind} processes n/a ({error})</source>
        <translation>processus {kind} indisponibles ({error})</translation>
    </message>
    <message>
        <source>{kind} processes n/a (this driver has no call to list them)</source>
        <translation>processus {kind} indisponibles (ce pilote n&apos;a pas d&apos;appel pour les lister)</translation>
    </message>
    <message>
        <source>NVML read failed: {error}</source>
        <translation>la lecture NVML a échoué&#x202f;: {error}</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>de calcul</translation>
    </message>
    <message>
        <source>graphics</source>
        <translation>graphiques</translation>
    </message>
</context>
<context>
    <name>OomList</name>
    <message>
        <source>time</source>
        <translation>heure</translation>
    </message>
    <message>
        <source>request</source>
        <translation>demande</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>snapshot</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ouvrir</translation>
    </message>
    <message>
        <source>Open the selected OOM&apos;s snapshot in a tab of its own (or double-click a row)</source>
        <translation>Ouvrir le snapshot de l&apos;OOM sélectionné dans un onglet à part (ou double-cliquez sur une ligne)</translation>
    </message>
    <message>
        <source>no such OOM in the list</source>
        <translation>cet OOM n&apos;est pas dans la liste</translation>
    </message>
    <message>
        <source>OOM #{ordinal}: {problem}</source>
        <translation>OOM n°{ordinal}&#x202f;: {problem}</translation>
    </message>
    <message>
        <source>none written</source>
        <translation>aucun écrit</translation>
    </message>
    <message>
        <source>the probe writes a snapshot for the first OOMs of a job only</source>
        <translation>la sonde n&apos;écrit un snapshot que pour les premiers OOM d&apos;une tâche</translation>
    </message>
    <message>
        <source>{name} (gone)</source>
        <translation>{name} (disparu)</translation>
    </message>
    <message>
        <source>{path} no longer exists</source>
        <translation>{path} n&apos;existe plus</translation>
    </message>
    <message>
        <source>{path}
double-click to open it in a tab</source>
        <translation>{path}
double-cliquez pour l&apos;ouvrir dans un onglet</translation>
    </message>
    <message>
        <source>{size} ({bytes} bytes)</source>
        <translation>{size} ({bytes} octets)</translation>
    </message>
    <message>
        <source>the job&apos;s OOM number {n}</source>
        <translation>l&apos;OOM n°{n} de la tâche</translation>
    </message>
    <message>
        <source>the request that failed: {size}</source>
        <translation>la demande qui a échoué&#x202f;: {size}</translation>
    </message>
    <message>
        <source>no out-of-memory error since attaching</source>
        <translation>aucune erreur de mémoire épuisée depuis l&apos;attachement</translation>
    </message>
    <message>
        <source>{n} out-of-memory {n:error|errors} since attaching</source>
        <translation>{n} {n:erreur|erreurs} de mémoire épuisée depuis l&apos;attachement</translation>
    </message>
    <message>
        <source>; the latest {listed} listed, {dropped} earlier dropped</source>
        <translation>&#x202f;; les {listed} dernières listées, {dropped} plus anciennes abandonnées</translation>
    </message>
    <message>
        <source> (double-click one to open its snapshot)</source>
        <translation> (double-cliquez sur l&apos;une d&apos;elles pour ouvrir son snapshot)</translation>
    </message>
    <message>
        <source>the probe wrote no snapshot for this OOM (it writes one for the first OOMs of a job only)</source>
        <translation>la sonde n&apos;a écrit aucun snapshot pour cet OOM (elle n&apos;en écrit que pour les premiers OOM d&apos;une tâche)</translation>
    </message>
    <message>
        <source>its snapshot {path} no longer exists (a demo job removes its OOM folder when it exits)</source>
        <translation>son snapshot {path} n&apos;existe plus (une tâche de démonstration supprime son dossier d&apos;OOM en se terminant)</translation>
    </message>
</context>
<context>
    <name>Probe</name>
    <message>
        <source>process {pid} runs no gpumem-gui probe: start the job with `python -m gpumem_gui.probe script.py`, or add `import gpumem_gui.probe; gpumem_gui.probe.start()` to it</source>
        <translation>le processus {pid} n&apos;exécute aucune sonde gpumem-gui&#x202f;: lancer le job avec `python -m gpumem_gui.probe script.py`, ou y ajouter `import gpumem_gui.probe` puis `gpumem_gui.probe.start()`</translation>
    </message>
    <message>
        <source>no probe answers at {path}: its job has gone and left the socket behind</source>
        <translation>aucune sonde ne répond à {path}&#x202f;: son job est parti en laissant le socket derrière lui</translation>
    </message>
    <message>
        <source>cannot connect to the probe at {path}: {error}</source>
        <translation>impossible de se connecter à la sonde à {path}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>no process {pid}</source>
        <translation>aucun processus {pid}</translation>
    </message>
    <message>
        <source>the probe in pid {pid} did not answer in {seconds} s</source>
        <translation>la sonde du pid {pid} n&apos;a pas répondu en {seconds} s</translation>
    </message>
    <message>
        <source>the probe in pid {pid} sent a bad message: {error}</source>
        <translation>la sonde du pid {pid} a envoyé un message incorrect&#x202f;: {error}</translation>
    </message>
    <message>
        <source>the probe in pid {pid} sent a bad snapshot: {error}</source>
        <translation>la sonde du pid {pid} a envoyé un snapshot incorrect&#x202f;: {error}</translation>
    </message>
    <message>
        <source>cannot store the snapshot of pid {pid}: {error}</source>
        <translation>impossible de stocker le snapshot du pid {pid}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>the probe refused the connection</source>
        <translation>la sonde a refusé la connexion</translation>
    </message>
    <message>
        <source>the probe refused the request</source>
        <translation>la sonde a refusé la requête</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has gone: {error}</source>
        <translation>le job (pid {pid}) a disparu&#x202f;: {error}</translation>
    </message>
    <message>
        <source>the job (pid {pid}) has gone during the transfer: {error}</source>
        <translation>le job (pid {pid}) a disparu pendant le transfert&#x202f;: {error}</translation>
    </message>
    <message>
        <source>the snapshot of pid {pid} ({length} bytes) does not fit in the free space where it is stored ({free} bytes free)</source>
        <translation>le snapshot du pid {pid} ({length} octets) ne tient pas dans l&apos;espace libre où il est stocké ({free} octets libres)</translation>
    </message>
    <message>
        <source>too many viewers attached</source>
        <translation>trop de visualiseurs attachés</translation>
    </message>
    <message>
        <source>connection from uid {uid} refused: only uid {me} may attach</source>
        <translation>connexion de l&apos;uid {uid} refusée&#x202f;: seul l&apos;uid {me} peut s&apos;attacher</translation>
    </message>
    <message>
        <source>this system cannot tell who is connecting (no SO_PEERCRED)</source>
        <translation>ce système ne peut pas dire qui se connecte (pas de SO_PEERCRED)</translation>
    </message>
    <message>
        <source>{op} failed in the probe: {error}</source>
        <translation>{op} a échoué dans la sonde&#x202f;: {error}</translation>
    </message>
    <message>
        <source>socket folder {path}: cannot create it: {error}</source>
        <translation>dossier des sockets {path}&#x202f;: impossible de le créer&#x202f;: {error}</translation>
    </message>
    <message>
        <source>socket folder {path}: {error}</source>
        <translation>dossier des sockets {path}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>socket folder {path} is not a directory</source>
        <translation>le dossier des sockets {path} n&apos;est pas un dossier</translation>
    </message>
    <message>
        <source>socket folder {path} belongs to another user (uid {uid})</source>
        <translation>le dossier des sockets {path} appartient à un autre utilisateur (uid {uid})</translation>
    </message>
    <message>
        <source>socket folder {path} is open to other users (mode {mode}); expected 0700</source>
        <translation>le dossier des sockets {path} est ouvert aux autres utilisateurs (mode {mode})&#x202f;; 0700 attendu</translation>
    </message>
    <message>
        <source>no socket at {path}: nothing there (for an SSH forward: is `ssh -L` running?)</source>
        <translation>aucun socket à {path}&#x202f;: rien à cet endroit (pour une redirection SSH&#x202f;: `ssh -L` tourne-t-il&#x202f;?)</translation>
    </message>
    <message>
        <source>cannot reach {path}: {error}</source>
        <translation>impossible d&apos;atteindre {path}&#x202f;: {error}</translation>
    </message>
    <message>
        <source>{path} is a folder, not a probe&apos;s socket</source>
        <translation>{path} est un dossier, pas le socket d&apos;une sonde</translation>
    </message>
    <message>
        <source>{path} is a file, not a probe&apos;s socket</source>
        <translation>{path} est un fichier, pas le socket d&apos;une sonde</translation>
    </message>
    <message>
        <source>{path} is not a socket, not a probe&apos;s socket</source>
        <translation>{path} n&apos;est pas un socket, donc pas celui d&apos;une sonde</translation>
    </message>
    <message>
        <source>{what} took longer than {seconds} s: {path}</source>
        <translation>{what} a pris plus de {seconds} s&#x202f;: {path}</translation>
    </message>
    <message>
        <source>{what} failed: {error}</source>
        <translation>{what} a échoué&#x202f;: {error}</translation>
    </message>
    <message>
        <source>nothing listens at {path}: the probe&apos;s job or the SSH forward has gone</source>
        <translation>rien n&apos;écoute à {path}&#x202f;: le job de la sonde ou la redirection SSH a disparu</translation>
    </message>
    <message>
        <source>what answers at {path} is not a gpumem-gui probe</source>
        <translation>ce qui répond à {path} n&apos;est pas une sonde gpumem-gui</translation>
    </message>
    <message>
        <source>the connection at {path} closed without an answer: no probe behind it (for an SSH forward: is the job still running, and is the server&apos;s socket path right?)</source>
        <translation>la connexion à {path} s&apos;est fermée sans réponse&#x202f;: aucune sonde derrière (pour une redirection SSH&#x202f;: le job tourne-t-il encore, et le chemin du socket sur le serveur est-il le bon&#x202f;?)</translation>
    </message>
    <message>
        <source>the probe&apos;s hello</source>
        <translation>le bonjour de la sonde</translation>
    </message>
    <message>
        <source>the snapshot</source>
        <translation>le snapshot</translation>
    </message>
</context>
</TS>
