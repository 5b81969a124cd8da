<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro_RO">
<context>
    <name>ApiPage</name>
    <message>
        <source>what the block is given</source>
        <translation>ce primește blocul</translation>
    </message>
    <message>
        <source>selective policy saves:</source>
        <translation>politica selectivă salvează:</translation>
    </message>
    <message>
        <source>Rerun policy</source>
        <translation>Rulați din nou politica</translation>
    </message>
    <message>
        <source>works</source>
        <translation>funcționează</translation>
    </message>
    <message>
        <source>runs, wrong gradients</source>
        <translation>rulează, gradienți greșiți</translation>
    </message>
    <message>
        <source>error</source>
        <translation>eroare</translation>
    </message>
    <message>
        <source>torch raised: “{error}”</source>
        <translation>torch a semnalat eroarea: „{error}”</translation>
    </message>
    <message>
        <source> (torch warned: “{warning}”)</source>
        <translation> (avertismentul lui torch: „{warning}”)</translation>
    </message>
    <message>
        <source>waiting for the running measurement to finish, then measuring...</source>
        <translation>se așteaptă încheierea măsurătorii în curs, apoi se măsoară...</translation>
    </message>
    <message>
        <source>measuring...</source>
        <translation>se măsoară...</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nimic</translation>
    </message>
    <message>
        <source>Saving {names} over {layers} checkpointed Linear-GELU-Linear {layers:layer|layers}: {outputs} op {outputs:output|outputs} saved, {held} held for backward (one activation is {activation}), {recomputed} of {matmuls} matmuls recomputed.</source>
        <translation>Cu {names} salvate pe {layers} {layers:strat|straturi|de straturi} Linear-GELU-Linear cu checkpoint: {outputs} {outputs:ieșire de operație salvată|ieșiri de operații salvate|de ieșiri de operații salvate}, {held} păstrați pentru trecerea înapoi (o activare are {activation}), {recomputed} din {matmuls} înmulțiri de matrice recalculate.</translation>
    </message>
</context>
<context>
    <name>CheckpointLabPanel</name>
    <message>
        <source>layers in the chain; the sweep also measures N = 4, 9, ..., 64</source>
        <translation>straturile lanțului; baleierea măsoară și N = 4, 9, ..., 64</translation>
    </message>
    <message>
        <source>features of each Linear layer</source>
        <translation>dimensiunea fiecărui strat Linear</translation>
    </message>
    <message>
        <source>rows of the input (batch x sequence): one activation is tokens x width</source>
        <translation>rândurile intrării (lot x secvență): o activare are tokeni x lățime</translation>
    </message>
    <message>
        <source>precision of the sweep against N: fp32, pure bf16 (a bf16 model), or autocast (an fp32 model under torch.autocast to bf16: mixed precision); all three are measured at N for the bf16 tab</source>
        <translation>precizia baleierii după N: fp32, bf16 pur (un model bf16) sau autocast (un model fp32 sub torch.autocast la bf16: precizie mixtă); toate trei sunt măsurate la N pentru fila bf16</translation>
    </message>
    <message>
        <source>log axes</source>
        <translation>axe logaritmice</translation>
    </message>
    <message>
        <source>log-log: N grows as a line of slope 1, sqrt(N) as a line of slope 1/2</source>
        <translation>log-log: N crește ca o dreaptă de pantă 1, sqrt(N) ca o dreaptă de pantă 1/2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Rulați</translation>
    </message>
    <message>
        <source>layers N</source>
        <translation>straturi N</translation>
    </message>
    <message>
        <source>width</source>
        <translation>lățime</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>tokeni</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>recalculare</translation>
    </message>
    <message>
        <source>bf16 / autocast</source>
        <translation>bf16 / autocast</translation>
    </message>
    <message>
        <source>checkpoint API</source>
        <translation>API-ul checkpoint</translation>
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
        <translation>{now}; {before}</translation>
    </message>
    <message>
        <source>measurement failed: {message}</source>
        <translation>măsurarea a eșuat: {message}</translation>
    </message>
    <message>
        <source>first figures after {seconds} s; </source>
        <translation>primele cifre după {seconds} s; </translation>
    </message>
    <message>
        <source>{passes} forward + backward {passes:pass|passes} measured</source>
        <translation>{passes} {passes:trecere|treceri|de treceri} înainte + înapoi {passes:măsurată|măsurate|măsurate}</translation>
    </message>
    <message>
        <source>{passes} forward + backward {passes:pass|passes} measured so far, refining (longer chains, bf16, timing)</source>
        <translation>{passes} {passes:trecere|treceri|de treceri} înainte + înapoi {passes:măsurată|măsurate|măsurate} până acum, se rafinează (lanțuri mai lungi, bf16, cronometrare)</translation>
    </message>
    <message>
        <source>: {seconds} s (+{warmup} s warm-up) with torch {version}, {width} wide, {tokens} tokens, {precision}; one activation = {activation}</source>
        <translation>: {seconds} s (+{warmup} s de încălzire) cu torch {version}, lățime {width}, {tokens} tokeni, {precision}; o activare = {activation}</translation>
    </message>
</context>
<context>
    <name>FsdpPage</name>
    <message>
        <source>parameters</source>
        <translation>parametri</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradienți</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>starea optimizatorului</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>world size</source>
        <translation>număr de ranguri</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>optimizator</translation>
    </message>
    <message>
        <source>per GPU against world size (FULL_SHARD)</source>
        <translation>pe GPU după numărul de ranguri (FULL_SHARD)</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU-uri</translation>
    </message>
    <message>
        <source>per GPU ({unit})</source>
        <translation>pe GPU ({unit})</translation>
    </message>
    <message>
        <source>one GPU (unsharded)</source>
        <translation>un GPU (neîmpărțit)</translation>
    </message>
    <message>
        <source>per GPU</source>
        <translation>pe GPU</translation>
    </message>
    <message>
        <source>sum over ranks</source>
        <translation>suma pe ranguri</translation>
    </message>
    <message>
        <source>per GPU of {world}</source>
        <translation>pe GPU din {world}</translation>
    </message>
    <message>
        <source>Measured after one real {optimizer} step on the {layers}-layer chain ({params} {dtype} {params:parameter|parameters}; optimizer state: {state}). {strategy}: one flat parameter per layer, padded to a multiple of {world} ({padding} {padding:element|elements} of padding) and split evenly; each rank keeps its slice of parameters, gradients and optimizer state, and all-gathers one layer ({unit}) at a time for its forward and backward, holding that layer&apos;s unsharded gradient too until reduce-scatter (prefetching can hold two layers). This is FSDP1&apos;s flat parameter; FSDP2&apos;s fully_shard splits each parameter on dim 0 instead. The optimizer state includes AdamW&apos;s step counters, which on a GPU stay CPU tensors unless the optimizer is fused or capturable.</source>
        <translation>Măsurat după un pas real {optimizer} pe lanțul de {layers} straturi ({params} {params:parametru|parametri|de parametri} {dtype}; starea optimizatorului: {state}). {strategy}: un parametru plat pe strat, completat până la un multiplu de {world} ({padding} {padding:element|elemente|de elemente} de completare) și împărțit în mod egal; fiecare rang își păstrează partea sa de parametri, gradienți și stare a optimizatorului și adună (all_gather) câte un strat ({unit}) pe rând pentru trecerea înainte și trecerea înapoi, păstrând și gradientul neîmpărțit al acelui strat până la reduce-scatter (preîncărcarea poate ține două straturi). Acesta este parametrul plat din FSDP1; fully_shard din FSDP2 împarte în schimb fiecare parametru pe dimensiunea 0. Starea optimizatorului include contoarele de pași ale lui AdamW, care pe un GPU rămân tensori CPU, cu excepția cazului în care optimizatorul este fused sau capturable.</translation>
    </message>
</context>
<context>
    <name>PolicyTable</name>
    <message>
        <source>policy</source>
        <translation>politică</translation>
    </message>
    <message>
        <source>held for backward</source>
        <translation>păstrat pentru trecerea înapoi</translation>
    </message>
    <message>
        <source>via saved_tensors_hooks</source>
        <translation>prin saved_tensors_hooks</translation>
    </message>
    <message>
        <source>peak fwd+bwd</source>
        <translation>vârf înainte+înapoi</translation>
    </message>
    <message>
        <source>checkpoints</source>
        <translation>checkpoint-uri</translation>
    </message>
    <message>
        <source>extra layer forwards</source>
        <translation>treceri înainte suplimentare prin straturi</translation>
    </message>
    <message>
        <source>recomputed matmuls / pointwise</source>
        <translation>înmulțiri de matrice / operații element cu element recalculate</translation>
    </message>
    <message>
        <source>extra matmul FLOPs</source>
        <translation>FLOP-uri de înmulțire de matrice în plus</translation>
    </message>
    <message>
        <source>storages created in the forward and still alive when it returns; parameters excluded</source>
        <translation>zonele de stocare create în trecerea înainte și încă active când aceasta se încheie; fără parametri</translation>
    </message>
    <message>
        <source>distinct storages packed through the outer saved_tensors_hooks during the forward</source>
        <translation>zone de stocare distincte împachetate prin saved_tensors_hooks exterioare în timpul trecerii înainte</translation>
    </message>
    <message>
        <source>live activation bytes at their highest over forward and backward (parameter gradients excluded)</source>
        <translation>octeții de activări încă active, la maximul lor pe trecerea înainte și trecerea înapoi (fără gradienții parametrilor)</translation>
    </message>
    <message>
        <source>layer forwards started again during backward</source>
        <translation>treceri înainte prin straturi reluate în timpul trecerii înapoi</translation>
    </message>
    <message>
        <source>ops run during backward under grad mode (checkpoint recomputation), of the forward&apos;s matmuls</source>
        <translation>operații rulate în trecerea înapoi cu gradienți activați (recalcularea checkpoint), din înmulțirile de matrice ale trecerii înainte</translation>
    </message>
    <message>
        <source>matmul FLOPs recomputed, and their share of the forward&apos;s</source>
        <translation>FLOP-uri de înmulțire de matrice recalculate și ponderea lor din cele ale trecerii înainte</translation>
    </message>
    <message>
        <source>the same selective checkpointing with a policy that names only torch.ops.aten.mm.default: nn.Linear with a bias runs aten.addmm, so nothing from a Linear is saved and every matmul before early stop is recomputed</source>
        <translation>același checkpointing selectiv, cu o politică ce numește doar torch.ops.aten.mm.default: nn.Linear cu bias rulează aten.addmm, așa că nu se salvează nimic dintr-un Linear și fiecare înmulțire de matrice dinaintea opririi timpurii este recalculată</translation>
    </message>
    <message>
        <source>{size} ({n} act.)</source>
        <translation>{size} ({n} act.)</translation>
    </message>
    <message>
        <source>{recomputed} of {matmuls} / {pointwise}</source>
        <translation>{recomputed} din {matmuls} / {pointwise}</translation>
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
        <translation>intrare fără requires_grad (parametrii blocului au totuși nevoie de gradienți)</translation>
    </message>
    <message>
        <source>a keyword argument: checkpoint(block, x, scale=s)</source>
        <translation>un argument cu nume: checkpoint(block, x, scale=s)</translation>
    </message>
    <message>
        <source>tensors inside a tuple, the only ones needing gradients: checkpoint(block, x, (a, b))</source>
        <translation>tensori într-un tuplu, singurii care au nevoie de gradienți: checkpoint(block, x, (a, b))</translation>
    </message>
    <message>
        <source>the region&apos;s only output is detached inside it</source>
        <translation>singura ieșire a regiunii este detașată în interiorul ei</translation>
    </message>
    <message>
        <source>same gradients as without checkpointing</source>
        <translation>aceiași gradienți ca fără checkpoint</translation>
    </message>
    <message>
        <source>no gradient reaches {names}</source>
        <translation>niciun gradient nu ajunge la {names}</translation>
    </message>
    <message>
        <source>gradient differs for {names}</source>
        <translation>gradientul diferă pentru {names}</translation>
    </message>
    <message>
        <source>aten.mm: a matmul without bias</source>
        <translation>aten.mm: o înmulțire de matrice fără bias</translation>
    </message>
    <message>
        <source>aten.addmm: nn.Linear with a bias</source>
        <translation>aten.addmm: nn.Linear cu bias</translation>
    </message>
    <message>
        <source>aten.gelu: the activation</source>
        <translation>aten.gelu: funcția de activare</translation>
    </message>
    <message>
        <source>no checkpointing</source>
        <translation>fără checkpoint</translation>
    </message>
    <message>
        <source>every layer</source>
        <translation>fiecare strat</translation>
    </message>
    <message>
        <source>every sqrt(N) layers</source>
        <translation>la fiecare √N straturi</translation>
    </message>
    <message>
        <source>selective (keep mm + addmm)</source>
        <translation>selectiv (păstrează mm + addmm)</translation>
    </message>
    <message>
        <source>selective naming only aten.mm</source>
        <translation>selectiv, numind doar aten.mm</translation>
    </message>
    <message>
        <source>pure bf16</source>
        <translation>bf16 pur</translation>
    </message>
    <message>
        <source>autocast bf16 (mixed precision)</source>
        <translation>autocast bf16 (precizie mixtă)</translation>
    </message>
    <message>
        <source>the checkpointing lab needs PyTorch: pip install &apos;gpumem-gui[torch]&apos; or pip install torch</source>
        <translation>laboratorul de checkpointing are nevoie de PyTorch: pip install &apos;gpumem-gui[torch]&apos; sau pip install torch</translation>
    </message>
    <message>
        <source>recomputed in backward</source>
        <translation>recalculat în trecerea înapoi</translation>
    </message>
    <message>
        <source>matmul FLOPs</source>
        <translation>FLOP-uri de înmulțire de matrice</translation>
    </message>
    <message>
        <source>pointwise ops</source>
        <translation>operații element cu element</translation>
    </message>
    <message>
        <source>recomputed in backward at N={n}</source>
        <translation>recalculat în trecerea înapoi la N={n}</translation>
    </message>
    <message>
        <source>% of the forward&apos;s own</source>
        <translation>% din cele ale trecerii înainte</translation>
    </message>
    <message>
        <source>held for backward: fp32, pure bf16, autocast bf16</source>
        <translation>păstrat pentru trecerea înapoi: fp32, bf16 pur, autocast bf16</translation>
    </message>
    <message>
        <source>held for backward ({unit})</source>
        <translation>păstrat pentru trecerea înapoi ({unit})</translation>
    </message>
    <message>
        <source>held for backward at N={n}</source>
        <translation>păstrat pentru trecerea înapoi la N={n}</translation>
    </message>
    <message>
        <source>Measured on this CPU with PyTorch, not computed: bytes are the storages created in the forward and still alive when it returns (parameters excluded), checked against the tensors packed through saved_tensors_hooks (selective checkpointing keeps its matmul outputs in its own cache, which those hooks do not see). Recompute counts the ops run in backward under grad mode, as checkpoint does. No times at this size: layers this small take microseconds, so a clock would measure Python overhead and the machine&apos;s load, not FLOPs; the recompute tab times one step at a size where the matmuls dominate.</source>
        <translation>Măsurat pe acest CPU cu PyTorch, nu calculat: octeții sunt zonele de stocare create în trecerea înainte și încă active când aceasta se încheie (fără parametri), verificați față de tensorii împachetați prin saved_tensors_hooks (checkpointing-ul selectiv își ține ieșirile înmulțirilor de matrice în propriul cache, pe care aceste hook-uri nu îl văd). Recalcularea numără operațiile rulate în trecerea înapoi cu gradienți activați, la fel ca checkpoint. Fără timpi la această dimensiune: straturile atât de mici durează microsecunde, așa că un ceas ar măsura costul suplimentar al lui Python și încărcarea mașinii, nu FLOP-urile; fila de recalculare cronometrează un pas la o dimensiune la care înmulțirile de matrice domină.</translation>
    </message>
    <message>
        <source>importing torch and warming it up (the first run only: seconds, longer on a busy machine)</source>
        <translation>se importă și se încălzește torch (doar la prima rulare: câteva secunde, mai mult pe o mașină încărcată)</translation>
    </message>
    <message>
        <source>measuring the first figures: N = {ns}, every policy</source>
        <translation>se măsoară primele cifre: N = {ns}, toate politicile</translation>
    </message>
    <message>
        <source>measuring pure bf16 and autocast bf16 at N = {ns}</source>
        <translation>se măsoară bf16 pur și autocast bf16 la N = {ns}</translation>
    </message>
    <message>
        <source>measuring a longer chain: N = {ns}</source>
        <translation>se măsoară un lanț mai lung: N = {ns}</translation>
    </message>
    <message>
        <source>timing one step per policy at N = {ns}</source>
        <translation>se cronometrează un pas pentru fiecare politică la N = {ns}</translation>
    </message>
    <message>
        <source>Times: one step per policy is timed at the end, at {width} wide x {tokens} tokens, where matmuls dominate.</source>
        <translation>Timpi: la sfârșit se cronometrează un pas pentru fiecare politică, la lățimea {width} x {tokens} tokeni, unde înmulțirile de matrice domină.</translation>
    </message>
    <message>
        <source>{policy} {ms} ms ({time}; matmul FLOPs {flops})</source>
        <translation>{policy} {ms} ms ({time}; FLOP-uri de înmulțire de matrice {flops})</translation>
    </message>
    <message>
        <source>One fp32 forward + backward, best of {repeats}, at {layers} layers x {width} wide x {tokens} tokens on {threads} CPU {threads:thread|threads}, where matmuls dominate: {parts}. Time beyond the FLOPs is the recomputed pointwise work (GELU) and checkpointing&apos;s own overhead. A clock on a shared CPU varies from run to run (run again to see by how much); the counted matmuls do not. At the lab&apos;s own size a clock would measure Python overhead, so no times are shown there.</source>
        <translation>O trecere înainte + înapoi în fp32, cel mai bun timp din {repeats}, la {layers} straturi x lățimea {width} x {tokens} tokeni pe {threads} {threads:fir|fire|de fire} CPU, unde înmulțirile de matrice domină: {parts}. Timpul peste FLOP-uri este munca element cu element recalculată (GELU) și costul propriu al checkpointing-ului. Un ceas pe un CPU partajat variază de la o rulare la alta (rulați din nou pentru a vedea cu cât); înmulțirile de matrice numărate nu variază. La dimensiunea proprie a laboratorului, un ceas ar măsura costul suplimentar al lui Python, așa că acolo nu se afișează timpi.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>fără</translation>
    </message>
    <message>
        <source>every √N layers</source>
        <translation>la fiecare √N straturi</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>selectiv</translation>
    </message>
    <message>
        <source>peak over forward + backward (solid) and kept at the end of forward (dashed) against N</source>
        <translation>vârful pe trecerea înainte + înapoi (continuu) și ce rămâne la sfârșitul trecerii înainte (punctat) după N</translation>
    </message>
    <message>
        <source>layers N</source>
        <translation>straturi N</translation>
    </message>
    <message>
        <source>activation bytes ({unit})</source>
        <translation>octeți de activări ({unit})</translation>
    </message>
    <message>
        <source>c·√N fitted to the sqrt peaks</source>
        <translation>c·√N ajustat la vârfurile sqrt</translation>
    </message>
    <message>
        <source>peak {size}</source>
        <translation>vârf {size}</translation>
    </message>
</context>
</TS>
