<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>ApiPage</name>
    <message>
        <source>what the block is given</source>
        <translation>ce que reçoit le bloc</translation>
    </message>
    <message>
        <source>selective policy saves:</source>
        <translation>la politique sélective sauvegarde&#x202f;:</translation>
    </message>
    <message>
        <source>Rerun policy</source>
        <translation>Relancer la politique</translation>
    </message>
    <message>
        <source>works</source>
        <translation>fonctionne</translation>
    </message>
    <message>
        <source>runs, wrong gradients</source>
        <translation>s&apos;exécute, gradients faux</translation>
    </message>
    <message>
        <source>error</source>
        <translation>erreur</translation>
    </message>
    <message>
        <source>torch raised: “{error}”</source>
        <translation>torch a levé l&apos;erreur&#x202f;: «&#x202f;{error}&#x202f;»</translation>
    </message>
    <message>
        <source> (torch warned: “{warning}”)</source>
        <translation> (avertissement de torch&#x202f;: «&#x202f;{warning}&#x202f;»)</translation>
    </message>
    <message>
        <source>waiting for the running measurement to finish, then measuring...</source>
        <translation>attente de la fin de la mesure en cours, puis mesure...</translation>
    </message>
    <message>
        <source>measuring...</source>
        <translation>mesure en cours...</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>rien</translation>
    </message>
    <message>
        <source>Saving {names} over {layers} checkpointed Linear-GELU-Linear {layers:layer|layers}: {outputs} op {outputs:output|outputs} saved, {held} held for backward (one activation is {activation}), {recomputed} of {matmuls} matmuls recomputed.</source>
        <translation>En sauvegardant {names} sur {layers} {layers:couche|couches} Linear-GELU-Linear sous point de contrôle&#x202f;: {outputs} {outputs:sortie d&apos;opération sauvegardée|sorties d&apos;opérations sauvegardées}, {held} gardés pour la passe arrière (une activation fait {activation}), {recomputed} produits matriciels recalculés sur {matmuls}.</translation>
    </message>
</context>
<context>
    <name>CheckpointLabPanel</name>
    <message>
        <source>layers in the chain; the sweep also measures N = 4, 9, ..., 64</source>
        <translation>couches de la chaîne&#x202f;; le balayage mesure aussi N = 4, 9, ..., 64</translation>
    </message>
    <message>
        <source>features of each Linear layer</source>
        <translation>dimension de chaque couche Linear</translation>
    </message>
    <message>
        <source>rows of the input (batch x sequence): one activation is tokens x width</source>
        <translation>lignes de l&apos;entrée (lot x séquence)&#x202f;: une activation fait jetons x largeur</translation>
    </message>
    <message>
        <source>precision of the sweep against N: fp32, pure bf16 (a bf16 model), or autocast (an fp32 model under torch.autocast to bf16: mixed precision); all three are measured at N for the bf16 tab</source>
        <translation>précision du balayage selon N&#x202f;: fp32, bf16 pur (un modèle bf16) ou autocast (un modèle fp32 sous torch.autocast vers bf16&#x202f;: précision mixte)&#x202f;; les trois sont mesurées à N pour l&apos;onglet bf16</translation>
    </message>
    <message>
        <source>log axes</source>
        <translation>axes logarithmiques</translation>
    </message>
    <message>
        <source>log-log: N grows as a line of slope 1, sqrt(N) as a line of slope 1/2</source>
        <translation>log-log&#x202f;: N croît comme une droite de pente 1, sqrt(N) comme une droite de pente 1/2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <source>layers N</source>
        <translation>couches N</translation>
    </message>
    <message>
        <source>width</source>
        <translation>largeur</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>jetons</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>recalcul</translation>
    </message>
    <message>
        <source>bf16 / autocast</source>
        <translation>bf16 / autocast</translation>
    </message>
    <message>
        <source>checkpoint API</source>
        <translation>API checkpoint</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} s</translation>
    </message>
    <message>
        <source>{stage} ({elapsed})</source>
        <translation>{stage} ({elapsed})</translation>
    </message>
    <message>
        <source>{now}; {before}</source>
        <translation>{now}&#x202f;; {before}</translation>
    </message>
    <message>
        <source>measurement failed: {message}</source>
        <translation>la mesure a échoué&#x202f;: {message}</translation>
    </message>
    <message>
        <source>first figures after {seconds} s; </source>
        <translation>premiers chiffres après {seconds} s&#x202f;; </translation>
    </message>
    <message>
        <source>{passes} forward + backward {passes:pass|passes} measured</source>
        <translation>{passes} {passes:passe|passes} avant + arrière {passes:mesurée|mesurées}</translation>
    </message>
    <message>
        <source>{passes} forward + backward {passes:pass|passes} measured so far, refining (longer chains, bf16, timing)</source>
        <translation>{passes} {passes:passe|passes} avant + arrière {passes:mesurée|mesurées} pour l&apos;instant, affinage en cours (chaînes plus longues, bf16, chronométrage)</translation>
    </message>
    <message>
        <source>: {seconds} s (+{warmup} s warm-up) with torch {version}, {width} wide, {tokens} tokens, {precision}; one activation = {activation}</source>
        <translation>&#x202f;: {seconds} s (+{warmup} s de mise en route) avec torch {version}, largeur {width}, {tokens} jetons, {precision}&#x202f;; une activation = {activation}</translation>
    </message>
</context>
<context>
    <name>FsdpPage</name>
    <message>
        <source>parameters</source>
        <translation>paramètres</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradients</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>état de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>world size</source>
        <translation>nombre de rangs</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>optimiseur</translation>
    </message>
    <message>
        <source>per GPU against world size (FULL_SHARD)</source>
        <translation>par GPU selon le nombre de rangs (FULL_SHARD)</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>per GPU ({unit})</source>
        <translation>par GPU ({unit})</translation>
    </message>
    <message>
        <source>one GPU (unsharded)</source>
        <translation>un GPU (non partitionné)</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>par GPU</translation>
    </message>
    <message>
        <source>sum over ranks</source>
        <translation>somme sur les rangs</translation>
    </message>
    <message>
        <source>per GPU of {world}</source>
        <translation>par GPU sur {world}</translation>
    </message>
    <message>
        <source>Measured after one real {optimizer} step on the {layers}-layer chain ({params} {dtype} {params:parameter|parameters}; optimizer state: {state}). {strategy}: one flat parameter per layer, padded to a multiple of {world} ({padding} {padding:element|elements} of padding) and split evenly; each rank keeps its slice of parameters, gradients and optimizer state, and all-gathers one layer ({unit}) at a time for its forward and backward, holding that layer&apos;s unsharded gradient too until reduce-scatter (prefetching can hold two layers). This is FSDP1&apos;s flat parameter; FSDP2&apos;s fully_shard splits each parameter on dim 0 instead. The optimizer state includes AdamW&apos;s step counters, which on a GPU stay CPU tensors unless the optimizer is fused or capturable.</source>
        <translation>Mesuré après un vrai pas {optimizer} sur la chaîne de {layers} couches ({params} {params:paramètre|paramètres} {dtype}&#x202f;; état de l&apos;optimiseur&#x202f;: {state}). {strategy}&#x202f;: un paramètre plat par couche, complété jusqu&apos;à un multiple de {world} ({padding} {padding:élément|éléments} de remplissage) et réparti à parts égales&#x202f;; chaque rang garde sa part des paramètres, des gradients et de l&apos;état de l&apos;optimiseur, et rassemble (all_gather) une couche ({unit}) à la fois pour sa passe avant et sa passe arrière, en gardant aussi le gradient non partitionné de cette couche jusqu&apos;au reduce-scatter (le préchargement peut garder deux couches). C&apos;est le paramètre plat de FSDP1&#x202f;; fully_shard de FSDP2 découpe plutôt chaque paramètre selon la dimension 0. L&apos;état de l&apos;optimiseur comprend les compteurs de pas d&apos;AdamW, qui sur un GPU restent des tenseurs CPU sauf si l&apos;optimiseur est fused ou capturable.</translation>
    </message>
</context>
<context>
    <name>PolicyTable</name>
    <message>
        <source>policy</source>
        <translation>politique</translation>
    </message>
    <message>
        <source>held for backward</source>
        <translation>gardé pour la passe arrière</translation>
    </message>
    <message>
        <source>via saved_tensors_hooks</source>
        <translation>via saved_tensors_hooks</translation>
    </message>
    <message>
        <source>peak fwd+bwd</source>
        <translation>pic avant+arrière</translation>
    </message>
    <message>
        <source>checkpoints</source>
        <translation>points de contrôle</translation>
    </message>
    <message>
        <source>extra layer forwards</source>
        <translation>passes avant de couche en plus</translation>
    </message>
    <message>
        <source>recomputed matmuls / pointwise</source>
        <translation>produits matriciels / opérations élément par élément recalculés</translation>
    </message>
    <message>
        <source>extra matmul FLOPs</source>
        <translation>FLOP de produits matriciels en plus</translation>
    </message>
    <message>
        <source>storages created in the forward and still alive when it returns; parameters excluded</source>
        <translation>stockages créés pendant la passe avant et encore vivants à sa fin&#x202f;; paramètres exclus</translation>
    </message>
    <message>
        <source>distinct storages packed through the outer saved_tensors_hooks during the forward</source>
        <translation>stockages distincts empaquetés par les saved_tensors_hooks extérieurs pendant la passe avant</translation>
    </message>
    <message>
        <source>live activation bytes at their highest over forward and backward (parameter gradients excluded)</source>
        <translation>octets d&apos;activations vivantes à leur maximum sur la passe avant et la passe arrière (gradients des paramètres exclus)</translation>
    </message>
    <message>
        <source>layer forwards started again during backward</source>
        <translation>passes avant de couche relancées pendant la passe arrière</translation>
    </message>
    <message>
        <source>ops run during backward under grad mode (checkpoint recomputation), of the forward&apos;s matmuls</source>
        <translation>opérations exécutées pendant la passe arrière en mode gradient (recalcul du checkpoint), sur les produits matriciels de la passe avant</translation>
    </message>
    <message>
        <source>matmul FLOPs recomputed, and their share of the forward&apos;s</source>
        <translation>FLOP de produits matriciels recalculés, et leur part dans ceux de la passe avant</translation>
    </message>
    <message>
        <source>the same selective checkpointing with a policy that names only torch.ops.aten.mm.default: nn.Linear with a bias runs aten.addmm, so nothing from a Linear is saved and every matmul before early stop is recomputed</source>
        <translation>les mêmes points de contrôle sélectifs, avec une politique qui ne nomme que torch.ops.aten.mm.default&#x202f;: nn.Linear avec biais exécute aten.addmm, donc rien d&apos;un Linear n&apos;est sauvegardé et chaque produit matriciel avant l&apos;arrêt anticipé est recalculé</translation>
    </message>
    <message>
        <source>{size} ({n} act.)</source>
        <translation>{size} ({n} act.)</translation>
    </message>
    <message>
        <source>{recomputed} of {matmuls} / {pointwise}</source>
        <translation>{recomputed} sur {matmuls} / {pointwise}</translation>
    </message>
    <message>
        <source>{mflops} M ({share})</source>
        <translation>{mflops} M ({share})</translation>
    </message>
</context>
<context>
    <name>lab</name>
    <message>
        <source>input without requires_grad (the block&apos;s parameters still need gradients)</source>
        <translation>entrée sans requires_grad (les paramètres du bloc ont tout de même besoin de gradients)</translation>
    </message>
    <message>
        <source>a keyword argument: checkpoint(block, x, scale=s)</source>
        <translation>un argument nommé&#x202f;: checkpoint(block, x, scale=s)</translation>
    </message>
    <message>
        <source>tensors inside a tuple, the only ones needing gradients: checkpoint(block, x, (a, b))</source>
        <translation>des tenseurs dans un tuple, les seuls à avoir besoin de gradients&#x202f;: checkpoint(block, x, (a, b))</translation>
    </message>
    <message>
        <source>the region&apos;s only output is detached inside it</source>
        <translation>la seule sortie de la région y est détachée</translation>
    </message>
    <message>
        <source>same gradients as without checkpointing</source>
        <translation>mêmes gradients que sans point de contrôle</translation>
    </message>
    <message>
        <source>no gradient reaches {names}</source>
        <translation>aucun gradient n&apos;atteint {names}</translation>
    </message>
    <message>
        <source>gradient differs for {names}</source>
        <translation>le gradient diffère pour {names}</translation>
    </message>
    <message>
        <source>aten.mm: a matmul without bias</source>
        <translation>aten.mm&#x202f;: un produit matriciel sans biais</translation>
    </message>
    <message>
        <source>aten.addmm: nn.Linear with a bias</source>
        <translation>aten.addmm&#x202f;: nn.Linear avec biais</translation>
    </message>
    <message>
        <source>aten.gelu: the activation</source>
        <translation>aten.gelu&#x202f;: la fonction d&apos;activation</translation>
    </message>
    <message>
        <source>no checkpointing</source>
        <translation>sans point de contrôle</translation>
    </message>
    <message>
        <source>every layer</source>
        <translation>chaque couche</translation>
    </message>
    <message>
        <source>every sqrt(N) layers</source>
        <translation>toutes les √N couches</translation>
    </message>
    <message>
        <source>selective (keep mm + addmm)</source>
        <translation>sélectif (garde mm + addmm)</translation>
    </message>
    <message>
        <source>selective naming only aten.mm</source>
        <translation>sélectif, ne nommant qu&apos;aten.mm</translation>
    </message>
    <message>
        <source>pure bf16</source>
        <translation>bf16 pur</translation>
    </message>
    <message>
        <source>autocast bf16 (mixed precision)</source>
        <translation>autocast bf16 (précision mixte)</translation>
    </message>
    <message>
        <source>the checkpointing lab needs PyTorch: pip install &apos;gpumem-gui[torch]&apos; or pip install torch</source>
        <translation>le laboratoire de checkpointing a besoin de PyTorch&#x202f;: pip install &apos;gpumem-gui[torch]&apos; ou pip install torch</translation>
    </message>
    <message>
        <source>recomputed in backward</source>
        <translation>recalculé pendant la passe arrière</translation>
    </message>
    <message>
        <source>matmul FLOPs</source>
        <translation>FLOP de produits matriciels</translation>
    </message>
    <message>
        <source>pointwise ops</source>
        <translation>opérations élément par élément</translation>
    </message>
    <message>
        <source>recomputed in backward at N={n}</source>
        <translation>recalculé pendant la passe arrière à N={n}</translation>
    </message>
    <message>
        <source>% of the forward&apos;s own</source>
        <translation>% de ceux de la passe avant</translation>
    </message>
    <message>
        <source>held for backward: fp32, pure bf16, autocast bf16</source>
        <translation>gardé pour la passe arrière&#x202f;: fp32, bf16 pur, autocast bf16</translation>
    </message>
    <message>
        <source>held for backward ({unit})</source>
        <translation>gardé pour la passe arrière ({unit})</translation>
    </message>
    <message>
        <source>held for backward at N={n}</source>
        <translation>gardé pour la passe arrière à N={n}</translation>
    </message>
    <message>
        <source>Measured on this CPU with PyTorch, not computed: bytes are the storages created in the forward and still alive when it returns (parameters excluded), checked against the tensors packed through saved_tensors_hooks (selective checkpointing keeps its matmul outputs in its own cache, which those hooks do not see). Recompute counts the ops run in backward under grad mode, as checkpoint does. No times at this size: layers this small take microseconds, so a clock would measure Python overhead and the machine&apos;s load, not FLOPs; the recompute tab times one step at a size where the matmuls dominate.</source>
        <translation>Mesuré sur ce CPU avec PyTorch, et non calculé&#x202f;: les octets sont les stockages créés pendant la passe avant et encore vivants à sa fin (paramètres exclus), vérifiés par rapport aux tenseurs empaquetés par saved_tensors_hooks (les points de contrôle sélectifs gardent leurs sorties de produits matriciels dans leur propre cache, que ces hooks ne voient pas). Le recalcul compte les opérations exécutées pendant la passe arrière en mode gradient, comme le fait checkpoint. Pas de temps à cette taille&#x202f;: des couches si petites prennent des microsecondes, une horloge mesurerait donc le surcoût de Python et la charge de la machine, pas les FLOP&#x202f;; l&apos;onglet de recalcul chronomètre un pas à une taille où les produits matriciels dominent.</translation>
    </message>
    <message>
        <source>importing torch and warming it up (the first run only: seconds, longer on a busy machine)</source>
        <translation>import et mise en route de torch (à la première exécution seulement&#x202f;: quelques secondes, davantage sur une machine chargée)</translation>
    </message>
    <message>
        <source>measuring the first figures: N = {ns}, every policy</source>
        <translation>mesure des premiers chiffres&#x202f;: N = {ns}, toutes les politiques</translation>
    </message>
    <message>
        <source>measuring pure bf16 and autocast bf16 at N = {ns}</source>
        <translation>mesure de bf16 pur et d&apos;autocast bf16 à N = {ns}</translation>
    </message>
    <message>
        <source>measuring a longer chain: N = {ns}</source>
        <translation>mesure d&apos;une chaîne plus longue&#x202f;: N = {ns}</translation>
    </message>
    <message>
        <source>timing one step per policy at N = {ns}</source>
        <translation>chronométrage d&apos;un pas par politique à N = {ns}</translation>
    </message>
    <message>
        <source>Times: one step per policy is timed at the end, at {width} wide x {tokens} tokens, where matmuls dominate.</source>
        <translation>Temps&#x202f;: un pas par politique est chronométré à la fin, à une largeur de {width} x {tokens} jetons, où les produits matriciels dominent.</translation>
    </message>
    <message>
        <source>{policy} {ms} ms ({time}; matmul FLOPs {flops})</source>
        <translation>{policy} {ms} ms ({time}&#x202f;; FLOP de produits matriciels {flops})</translation>
    </message>
    <message>
        <source>One fp32 forward + backward, best of {repeats}, at {layers} layers x {width} wide x {tokens} tokens on {threads} CPU {threads:thread|threads}, where matmuls dominate: {parts}. Time beyond the FLOPs is the recomputed pointwise work (GELU) and checkpointing&apos;s own overhead. A clock on a shared CPU varies from run to run (run again to see by how much); the counted matmuls do not. At the lab&apos;s own size a clock would measure Python overhead, so no times are shown there.</source>
        <translation>Une passe avant + arrière en fp32, meilleure de {repeats}, à {layers} couches x largeur {width} x {tokens} jetons sur {threads} {threads:fil|fils} CPU, où les produits matriciels dominent&#x202f;: {parts}. Le temps au-delà des FLOP est le travail élément par élément recalculé (GELU) et le surcoût propre au checkpointing. Une horloge sur un CPU partagé varie d&apos;une exécution à l&apos;autre (relancez pour voir de combien)&#x202f;; les produits matriciels comptés, non. À la taille propre du laboratoire, une horloge mesurerait le surcoût de Python, aussi aucun temps n&apos;y est affiché.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>every √N layers</source>
        <translation>toutes les √N couches</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>sélectif</translation>
    </message>
    <message>
        <source>peak over forward + backward (solid) and kept at the end of forward (dashed) against N</source>
        <translation>pic sur la passe avant + arrière (trait plein) et gardé à la fin de la passe avant (tirets) selon N</translation>
    </message>
    <message>
        <source>layers N</source>
        <translation>couches N</translation>
    </message>
    <message>
        <source>activation bytes ({unit})</source>
        <translation>octets d&apos;activations ({unit})</translation>
    </message>
    <message>
        <source>c·√N fitted to the sqrt peaks</source>
        <translation>c·√N ajusté aux pics sqrt</translation>
    </message>
    <message>
        <source>peak {size}</source>
        <translation>pic {size}</translation>
    </message>
</context>
</TS>
