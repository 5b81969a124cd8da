<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
<context>
    <name>Categories</name>
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
        <source>activations</source>
        <translation>activări</translation>
    </message>
    <message>
        <source>temporaries</source>
        <translation>temporare</translation>
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
        <source>library workspaces (cuBLAS, cuDNN, NCCL)</source>
        <translation>spații de lucru ale bibliotecilor (cuBLAS, cuDNN, NCCL)</translation>
    </message>
    <message>
        <source>weight copies made by autocast</source>
        <translation>copii ale ponderilor făcute de autocast</translation>
    </message>
    <message>
        <source>inputs moved to the device</source>
        <translation>intrări mutate pe dispozitiv</translation>
    </message>
</context>
<context>
    <name>CloseButton</name>
    <message>
        <source>Close Tab</source>
        <translation>Închideți fila</translation>
    </message>
</context>
<context>
    <name>CompareActions</name>
    <message>
        <source>Compare: {message}</source>
        <translation>Comparare: {message}</translation>
    </message>
    <message>
        <source>Compare: open a snapshot (fully loaded) first.</source>
        <translation>Comparare: deschideți mai întâi un instantaneu (încărcat complet).</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparați</translation>
    </message>
    <message>
        <source>Compare this tab (A, at its cursor) with B:</source>
        <translation>Comparați această filă (A, la cursorul ei) cu B:</translation>
    </message>
    <message>
        <source>A file...</source>
        <translation>Un fișier...</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>Comparați cu</translation>
    </message>
    <message>
        <source>Mark: open a snapshot (fully loaded) first.</source>
        <translation>Marcare: deschideți mai întâi un instantaneu (încărcat complet).</translation>
    </message>
    <message>
        <source>moment A: event {event}; go to B (another moment or tab), then View &gt; Compare With Moment A</source>
        <translation>momentul A: evenimentul {event}; mergeți la B (alt moment sau altă filă), apoi Vizualizare &gt; Comparați cu momentul A</translation>
    </message>
    <message>
        <source>Mark a moment first (View &gt; Mark This Moment as A).</source>
        <translation>Marcați mai întâi un moment (Vizualizare &gt; Marcați acest moment ca A).</translation>
    </message>
    <message>
        <source>Compare: show a snapshot (fully loaded) as B.</source>
        <translation>Comparare: arătați un instantaneu (încărcat complet) ca B.</translation>
    </message>
    <message>
        <source>Open a folder of rank snapshots</source>
        <translation>Deschideți un dosar de instantanee pe ranguri</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>en</source>
        <translation>ro</translation>
    </message>
</context>
<context>
    <name>Legend</name>
    <message>
        <source>allocated (a hue per allocation site)</source>
        <translation>alocat (o nuanță pe loc de alocare)</translation>
    </message>
    <message>
        <source>rounding waste (size - requested)</source>
        <translation>pierdere la rotunjire (mărime - cerut)</translation>
    </message>
    <message>
        <source>pending free (record_stream)</source>
        <translation>eliberare în așteptare (record_stream)</translation>
    </message>
    <message>
        <source>cached free: a hole</source>
        <translation>liber în cache: un gol</translation>
    </message>
    <message>
        <source>largest free block</source>
        <translation>cel mai mare bloc liber</translation>
    </message>
</context>
<context>
    <name>LiveActions</name>
    <message>
        <source>no probe at {path}</source>
        <translation>nicio sondă la {path}</translation>
    </message>
    <message>
        <source>No local job runs a gpumem-gui probe.</source>
        <translation>Niciun job local nu rulează o sondă gpumem-gui.</translation>
    </message>
    <message>
        <source>Attach to Socket</source>
        <translation>Atașați la un socket</translation>
    </message>
    <message>
        <source>Probe socket (e.g. /tmp/gpumem.sock, forwarded with ssh -L):</source>
        <translation>Socket-ul sondei (ex. /tmp/gpumem.sock, redirecționat cu ssh -L):</translation>
    </message>
    <message>
        <source>Attach</source>
        <translation>Atașare</translation>
    </message>
</context>
<context>
    <name>LoadErrorPage</name>
    <message>
        <source>Cannot open this file</source>
        <translation>Acest fișier nu poate fi deschis</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Închideți</translation>
    </message>
    <message>
        <source>Open another file...</source>
        <translation>Deschideți alt fișier...</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation>Anulați</translation>
    </message>
    <message>
        <source>Open snapshots</source>
        <translation>Deschideți instantanee</translation>
    </message>
    <message>
        <source>Snapshots ({patterns});;All files (*)</source>
        <translation>Instantanee ({patterns});;Toate fișierele (*)</translation>
    </message>
    <message>
        <source>{name}: grouping by site...</source>
        <translation>{name}: gruparea pe locuri de apel...</translation>
    </message>
    <message>
        <source>{name}: indexing the trace...</source>
        <translation>{name}: indexarea jurnalului de evenimente...</translation>
    </message>
    <message>
        <source>{name}: reading...</source>
        <translation>{name}: citire...</translation>
    </message>
    <message>
        <source>opening {count} files; {message}</source>
        <translation>se deschid {count} fișiere; {message}</translation>
    </message>
    <message>
        <source>replaying through the allocator simulator...</source>
        <translation>rejucare prin simulatorul alocatorului...</translation>
    </message>
</context>
<context>
    <name>MenuWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fișier</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>&amp;Deschideți...</translation>
    </message>
    <message>
        <source>Open &amp;Folder...</source>
        <translation>Deschideți un &amp;dosar...</translation>
    </message>
    <message>
        <source>Open C&amp;luster Folder...</source>
        <translation>Deschideți dosarul unui c&amp;luster...</translation>
    </message>
    <message>
        <source>&amp;Compare...</source>
        <translation>&amp;Comparați...</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Deschise &amp;recent</translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation>Deschideți un &amp;exemplu</translation>
    </message>
    <message>
        <source>Export &amp;Image...</source>
        <translation>Exportați &amp;imaginea...</translation>
    </message>
    <message>
        <source>Export &amp;Blocks CSV...</source>
        <translation>Exportați &amp;blocurile în CSV...</translation>
    </message>
    <message>
        <source>&amp;Save Report...</source>
        <translation>&amp;Salvați raportul...</translation>
    </message>
    <message>
        <source>Close &amp;Tab</source>
        <translation>Închideți &amp;fila</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Ieșire</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Vizualizare</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>Ecran &amp;complet</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Limbă</translation>
    </message>
    <message>
        <source>&amp;What if...</source>
        <translation>&amp;Ce-ar fi dacă...</translation>
    </message>
    <message>
        <source>&amp;Mark This Moment as A</source>
        <translation>&amp;Marcați acest moment ca A</translation>
    </message>
    <message>
        <source>&amp;Compare With Moment A</source>
        <translation>&amp;Comparați cu momentul A</translation>
    </message>
    <message>
        <source>Your &amp;Code and Libraries...</source>
        <translation>&amp;Codul dumneavoastră și bibliotecile...</translation>
    </message>
    <message>
        <source>Allocator &amp;Settings</source>
        <translation>&amp;Setările alocatorului</translation>
    </message>
    <message>
        <source>Cached Se&amp;gments</source>
        <translation>Se&amp;gmente în cache</translation>
    </message>
    <message>
        <source>Memory by &amp;Pool</source>
        <translation>Memoria pe &amp;pool</translation>
    </message>
    <message>
        <source>&amp;Explain the OOM or Peak</source>
        <translation>&amp;Explicați OOM-ul sau vârful</translation>
    </message>
    <message>
        <source>Explain This &amp;Event</source>
        <translation>Explicați acest &amp;eveniment</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>În &amp;direct</translation>
    </message>
    <message>
        <source>&amp;Attach...</source>
        <translation>&amp;Atașați...</translation>
    </message>
    <message>
        <source>Attach to A&amp;ll</source>
        <translation>Atașați la &amp;toate</translation>
    </message>
    <message>
        <source>Attach to &amp;Socket...</source>
        <translation>Atașați la un &amp;socket...</translation>
    </message>
    <message>
        <source>All &amp;Jobs</source>
        <translation>Toate &amp;joburile</translation>
    </message>
    <message>
        <source>GPU &amp;Devices</source>
        <translation>&amp;Dispozitive GPU</translation>
    </message>
    <message>
        <source>&amp;Detach</source>
        <translation>De&amp;tașați</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;jutor</translation>
    </message>
    <message>
        <source>Guided &amp;Quiz</source>
        <translation>&amp;Test ghidat</translation>
    </message>
    <message>
        <source>&amp;Checkpointing Lab</source>
        <translation>&amp;Laboratorul de checkpointing</translation>
    </message>
    <message>
        <source>&amp;Debugging Challenge</source>
        <translation>&amp;Provocare de depanare</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>&amp;Despre</translation>
    </message>
    <message>
        <source>About gpumem-gui</source>
        <translation>Despre gpumem-gui</translation>
    </message>
    <message>
        <source>gpumem-gui {version}: PyTorch CUDA caching-allocator memory, segment by segment.</source>
        <translation>gpumem-gui {version}: memoria alocatorului cu cache CUDA al PyTorch, segment cu segment.</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>Cancel</source>
        <translation>Anulați</translation>
    </message>
</context>
<context>
    <name>SnapshotError</name>
    <message>
        <source>a {type}</source>
        <translation>un obiect {type}</translation>
    </message>
    <message>
        <source>{names} changed while it was read (it is shorter than when it was opened); open it again once it is written</source>
        <translation>{names} s-a schimbat în timp ce era citit (este mai scurt decât la deschidere); deschideți-l din nou după ce este scris complet</translation>
    </message>
    <message>
        <source>signal {number}</source>
        <translation>semnalul {number}</translation>
    </message>
    <message>
        <source>{signal} (out of memory? the system&apos;s OOM killer sends it)</source>
        <translation>{signal} (memorie epuizată? îl trimite OOM killer-ul sistemului)</translation>
    </message>
    <message>
        <source>a stack frame is {type}, not a dict</source>
        <translation>un cadru de stivă este {type}, nu un dict</translation>
    </message>
    <message>
        <source>a &apos;frames&apos; value is {type}, not a list</source>
        <translation>o valoare &apos;frames&apos; este {type}, nu o listă</translation>
    </message>
    <message>
        <source>not a snapshot: a list, but not of segments (dicts with &apos;blocks&apos;)</source>
        <translation>nu este un instantaneu: o listă, dar nu de segmente (dict-uri cu &apos;blocks&apos;)</translation>
    </message>
    <message>
        <source>not a snapshot: the dict has no &apos;segments&apos; (its keys: {keys})</source>
        <translation>nu este un instantaneu: dict-ul nu are &apos;segments&apos; (cheile sale: {keys})</translation>
    </message>
    <message>
        <source>not a snapshot: the file holds {type}, not the dict of torch.cuda.memory._dump_snapshot or a list of segments</source>
        <translation>nu este un instantaneu: fișierul conține {type}, nu dict-ul lui torch.cuda.memory._dump_snapshot sau o listă de segmente</translation>
    </message>
    <message>
        <source>not a snapshot: &apos;segments&apos; is {type}, not a list</source>
        <translation>nu este un instantaneu: &apos;segments&apos; este {type}, nu o listă</translation>
    </message>
    <message>
        <source>not a snapshot: &apos;device_traces&apos; is not a list of lists</source>
        <translation>nu este un instantaneu: &apos;device_traces&apos; nu este o listă de liste</translation>
    </message>
    <message>
        <source>segment {i} is {type}, not a dict</source>
        <translation>segmentul {i} este {type}, nu un dict</translation>
    </message>
    <message>
        <source>segment {i} has no {key}</source>
        <translation>segmentul {i} nu are {key}</translation>
    </message>
    <message>
        <source>segment {i} has &apos;blocks&apos; that is not a list</source>
        <translation>segmentul {i} are &apos;blocks&apos; care nu este o listă</translation>
    </message>
    <message>
        <source>segment {i} block {j} is not a dict</source>
        <translation>blocul {j} al segmentului {i} nu este un dict</translation>
    </message>
    <message>
        <source>segment {i} block {j} has no {key}</source>
        <translation>blocul {j} al segmentului {i} nu are {key}</translation>
    </message>
    <message>
        <source>segment {i} block {j} has a bad &apos;state&apos; ({state})</source>
        <translation>blocul {j} al segmentului {i} are o valoare &apos;state&apos; greșită ({state})</translation>
    </message>
    <message>
        <source>segment {i} {key}</source>
        <translation>valoarea {key} a segmentului {i}</translation>
    </message>
    <message>
        <source>segment {i} block {j} {key}</source>
        <translation>valoarea {key} a blocului {j} al segmentului {i}</translation>
    </message>
    <message>
        <source>{where} entry {row} {key}</source>
        <translation>{where}, valoarea {key} a intrării {row}</translation>
    </message>
    <message>
        <source>is a directory, not a snapshot file</source>
        <translation>este un dosar, nu un fișier de instantaneu</translation>
    </message>
    <message>
        <source>is a FIFO (named pipe), not a snapshot file</source>
        <translation>este un FIFO (canal cu nume), nu un fișier de instantaneu</translation>
    </message>
    <message>
        <source>is a character device, not a snapshot file</source>
        <translation>este un dispozitiv de caractere, nu un fișier de instantaneu</translation>
    </message>
    <message>
        <source>is a block device, not a snapshot file</source>
        <translation>este un dispozitiv de blocuri, nu un fișier de instantaneu</translation>
    </message>
    <message>
        <source>is a socket, not a snapshot file</source>
        <translation>este un socket, nu un fișier de instantaneu</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>fișierul nu există</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>permisiune refuzată</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>fișierul este gol</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>nu este un fișier obișnuit</translation>
    </message>
    <message>
        <source>cannot read: {reason}</source>
        <translation>nu poate fi citit: {reason}</translation>
    </message>
    <message>
        <source>refused to load: gzip inside gzip more than {n} deep</source>
        <translation>încărcare refuzată: gzip în gzip pe mai mult de {n} niveluri</translation>
    </message>
    <message>
        <source>half the memory available</source>
        <translation>jumătate din memoria disponibilă</translation>
    </message>
    <message>
        <source>from {size}</source>
        <translation>din {size}</translation>
    </message>
    <message>
        <source>refused to load: the gzip data expands beyond {size} ({why})</source>
        <translation>încărcare refuzată: datele gzip se extind peste {size} ({why})</translation>
    </message>
    <message>
        <source>corrupt gzip data ({reason})</source>
        <translation>date gzip corupte ({reason})</translation>
    </message>
    <message>
        <source>cannot decompress into {folder}: {reason}</source>
        <translation>nu se poate decomprima în {folder}: {reason}</translation>
    </message>
    <message>
        <source>the gzip stream is empty</source>
        <translation>fluxul gzip este gol</translation>
    </message>
    <message>
        <source>not valid JSON ({reason})</source>
        <translation>JSON nevalid ({reason})</translation>
    </message>
    <message>
        <source>a number in the JSON has more digits than Python reads ({n})</source>
        <translation>un număr din JSON are mai multe cifre decât citește Python ({n})</translation>
    </message>
    <message>
        <source>not valid JSON (nested too deeply)</source>
        <translation>JSON nevalid (imbricat prea adânc)</translation>
    </message>
    <message>
        <source>pickle protocol {protocol} is newer than this Python reads</source>
        <translation>protocolul pickle {protocol} este mai nou decât citește acest Python</translation>
    </message>
    <message>
        <source>not a snapshot: neither a pickle nor JSON</source>
        <translation>nu este un instantaneu: nici pickle, nici JSON</translation>
    </message>
    <message>
        <source>ran out of input</source>
        <translation>datele s-au terminat</translation>
    </message>
    <message>
        <source>truncated or corrupt pickle ({reason})</source>
        <translation>pickle trunchiat sau corupt ({reason})</translation>
    </message>
    <message>
        <source>corrupt pickle ({type}: {reason})</source>
        <translation>pickle corupt ({type}: {reason})</translation>
    </message>
    <message>
        <source>corrupt pickle (nested too deeply)</source>
        <translation>pickle corupt (imbricat prea adânc)</translation>
    </message>
    <message>
        <source>corrupt pickle (it asks for more memory than there is)</source>
        <translation>pickle corupt (cere mai multă memorie decât există)</translation>
    </message>
    <message>
        <source>refused to load: the data is nested too deeply</source>
        <translation>încărcare refuzată: datele sunt imbricate prea adânc</translation>
    </message>
    <message>
        <source>refused to load: it needs more memory than there is</source>
        <translation>încărcare refuzată: are nevoie de mai multă memorie decât există</translation>
    </message>
    <message>
        <source>refused to load: device {device} trace holds one entry at several places</source>
        <translation>încărcare refuzată: jurnalul de evenimente al dispozitivului {device} conține aceeași intrare în mai multe locuri</translation>
    </message>
    <message>
        <source>refused to load: more than {rows} segments, blocks and trace entries from {bytes} bytes of pickle (one entry repeated by reference?)</source>
        <translation>încărcare refuzată: peste {rows} segmente, blocuri și intrări de jurnal din {bytes} octeți de pickle (o intrare repetată prin referință?)</translation>
    </message>
    <message>
        <source>device {device} has no segments and no trace (devices: {found})</source>
        <translation>dispozitivul {device} nu are segmente și nici jurnal de evenimente (dispozitive: {found})</translation>
    </message>
    <message>
        <source>none</source>
        <translation>niciunul</translation>
    </message>
    <message>
        <source>{where} is {value}, not a dict</source>
        <translation>{where} este {value}, nu un dict</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a string</source>
        <translation>{where} {key} este {value}, nu un șir</translation>
    </message>
    <message>
        <source>{where} {key} is {value}, not a dict of device: bytes</source>
        <translation>{where} {key} este {value}, nu un dict dispozitiv: octeți</translation>
    </message>
    <message>
        <source>{where} device</source>
        <translation>dispozitivul din {where}</translation>
    </message>
    <message>
        <source>{where} total memory of device {device}</source>
        <translation>{where}, memoria totală a dispozitivului {device}</translation>
    </message>
    <message>
        <source>refused to load: the file asks for {name}</source>
        <translation>încărcare refuzată: fișierul cere {name}</translation>
    </message>
    <message>
        <source>refused to load: the file uses a persistent id</source>
        <translation>încărcare refuzată: fișierul folosește un id persistent</translation>
    </message>
    <message>
        <source>refused to load: the file uses the pickle extension registry ({name})</source>
        <translation>încărcare refuzată: fișierul folosește registrul de extensii pickle ({name})</translation>
    </message>
    <message>
        <source>refused to load: memo index {index} is beyond what a {n}-byte pickle can hold</source>
        <translation>încărcare refuzată: indexul memo {index} depășește ce poate conține un pickle de {n} octeți</translation>
    </message>
    <message>
        <source>the file changed while it was read; read it again when it is written</source>
        <translation>fișierul s-a schimbat în timp ce era citit; citiți-l din nou după ce este scris</translation>
    </message>
    <message>
        <source>cannot read it: {reason}</source>
        <translation>nu poate fi citit: {reason}</translation>
    </message>
    <message>
        <source>could not read the loaded data: {type}: {reason} ({path})</source>
        <translation>datele încărcate nu au putut fi citite: {type}: {reason} ({path})</translation>
    </message>
    <message>
        <source>loading took longer than {seconds} s ({path})</source>
        <translation>încărcarea a durat mai mult de {seconds} s ({path})</translation>
    </message>
    <message>
        <source>the loading process named a file outside its folder ({path})</source>
        <translation>procesul de încărcare a numit un fișier din afara dosarului său ({path})</translation>
    </message>
    <message>
        <source>cancelled ({path})</source>
        <translation>anulat ({path})</translation>
    </message>
    <message>
        <source>the loading process stopped unexpectedly, killed by {signal} ({path})</source>
        <translation>procesul de încărcare s-a oprit neașteptat, oprit de {signal} ({path})</translation>
    </message>
    <message>
        <source>the loading process stopped unexpectedly ({path})</source>
        <translation>procesul de încărcare s-a oprit neașteptat ({path})</translation>
    </message>
    <message>
        <source>nothing was loaded ({path})</source>
        <translation>nu s-a încărcat nimic ({path})</translation>
    </message>
</context>
<context>
    <name>StackPopup</name>
    <message>
        <source>click to pin</source>
        <translation>faceți clic pentru a fixa</translation>
    </message>
    <message>
        <source>pinned: Esc or a click on nothing unpins</source>
        <translation>fixat: Esc sau un clic în gol îl desprinde</translation>
    </message>
</context>
<context>
    <name>StackView</name>
    <message>
        <source>Also show the allocator, dispatcher, autograd engine and CPython frames, greyed</source>
        <translation>Arătați și cadrele alocatorului, dispatcher-ului, motorului autograd și CPython, în gri</translation>
    </message>
    <message>
        <source>no stack recorded</source>
        <translation>nicio stivă înregistrată</translation>
    </message>
    <message>
        <source>Show all frames ({hidden} hidden)</source>
        <translation>Arătați toate cadrele ({hidden} ascunse)</translation>
    </message>
    <message>
        <source>Show all frames</source>
        <translation>Arătați toate cadrele</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <source>GPU memory, block by block</source>
        <translation>Memoria GPU, bloc cu bloc</translation>
    </message>
    <message>
        <source>Open a snapshot written by {code} (or drop it here), watch a training job that runs the probe, or learn how the caching allocator fragments memory.</source>
        <translation>Deschideți un instantaneu scris de {code} (sau trageți-l aici), urmăriți un job de antrenare care rulează sonda sau aflați cum fragmentează memoria alocatorul cu cache.</translation>
    </message>
    <message>
        <source>Open snapshot...</source>
        <translation>Deschideți un instantaneu...</translation>
    </message>
    <message>
        <source>Ctrl+O: a .pickle, .json or .gz from any torch since 2.0</source>
        <translation>Ctrl+O: un .pickle, .json sau .gz de la orice torch începând cu 2.0</translation>
    </message>
    <message>
        <source>Open an example</source>
        <translation>Deschideți un exemplu</translation>
    </message>
    <message>
        <source>a simulated run that ends in a fragmentation OOM</source>
        <translation>o rulare simulată care se termină cu un OOM de fragmentare</translation>
    </message>
    <message>
        <source>Attach to a job...</source>
        <translation>Atașați la un job...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A: a local process that runs gpumem_gui.probe</source>
        <translation>Ctrl+Shift+A: un proces local care rulează gpumem_gui.probe</translation>
    </message>
    <message>
        <source>Guided quiz</source>
        <translation>Test ghidat</translation>
    </message>
    <message>
        <source>F2: fragmentation and checkpointing, each shown on a map</source>
        <translation>F2: fragmentarea și checkpointing-ul activărilor, fiecare arătat pe o hartă</translation>
    </message>
    <message>
        <source>Recent:</source>
        <translation>Recente:</translation>
    </message>
</context>
<context>
    <name>TabActions</name>
    <message>
        <source>What if</source>
        <translation>Ce-ar fi dacă</translation>
    </message>
    <message>
        <source>Open a snapshot with a trace first.</source>
        <translation>Deschideți mai întâi un instantaneu cu jurnal de evenimente.</translation>
    </message>
    <message>
        <source>Explain needs a snapshot with a trace, fully loaded.</source>
        <translation>Explicația are nevoie de un instantaneu cu jurnal de evenimente, încărcat complet.</translation>
    </message>
    <message>
        <source>Export blocks</source>
        <translation>Exportați blocurile</translation>
    </message>
    <message>
        <source>Save report</source>
        <translation>Salvați raportul</translation>
    </message>
    <message>
        <source>Text (*.txt);;JSON (*.json)</source>
        <translation>Text (*.txt);;JSON (*.json)</translation>
    </message>
    <message>
        <source>saved {path}</source>
        <translation>salvat {path}</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>Exportați imaginea</translation>
    </message>
</context>
<context>
    <name>Tabs</name>
    <message>
        <source>show me: {what}</source>
        <translation>arătați-mi: {what}</translation>
    </message>
    <message>
        <source>checkpointing lab</source>
        <translation>laboratorul de checkpointing</translation>
    </message>
    <message>
        <source>{name} (cannot open)</source>
        <translation>{name} (nu se poate deschide)</translation>
    </message>
    <message>
        <source>GPU devices</source>
        <translation>dispozitive GPU</translation>
    </message>
    <message>
        <source>live: all jobs</source>
        <translation>în direct: toate joburile</translation>
    </message>
    <message>
        <source>live: pid {pid}</source>
        <translation>în direct: pid {pid}</translation>
    </message>
    <message>
        <source>live: pid {pid} (remote)</source>
        <translation>în direct: pid {pid} (la distanță)</translation>
    </message>
    <message>
        <source>live: rank {rank} pid {pid}</source>
        <translation>în direct: rangul {rank} pid {pid}</translation>
    </message>
    <message>
        <source>live: rank {rank} pid {pid} (remote)</source>
        <translation>în direct: rangul {rank} pid {pid} (la distanță)</translation>
    </message>
    <message>
        <source>what if: {change}</source>
        <translation>ce-ar fi dacă: {change}</translation>
    </message>
    <message>
        <source>what if: recorded</source>
        <translation>ce-ar fi dacă: înregistrat</translation>
    </message>
    <message>
        <source>ranks: {folder} on {scheduler}</source>
        <translation>ranguri: {folder} pe {scheduler}</translation>
    </message>
    <message>
        <source>ranks: {folder}</source>
        <translation>ranguri: {folder}</translation>
    </message>
</context>
<context>
    <name>Tasks</name>
    <message>
        <source>attach {target}</source>
        <translation>atașare {target}</translation>
    </message>
    <message>
        <source>Attach to All</source>
        <translation>Atașare la toate</translation>
    </message>
    <message>
        <source>live session pid {pid}</source>
        <translation>sesiune în direct pid {pid}</translation>
    </message>
    <message>
        <source>live events pid {pid}</source>
        <translation>evenimente în direct pid {pid}</translation>
    </message>
    <message>
        <source>mark {name}</source>
        <translation>marcare {name}</translation>
    </message>
    <message>
        <source>ranks {folder}</source>
        <translation>ranguri {folder}</translation>
    </message>
    <message>
        <source>NVML poll</source>
        <translation>citire NVML</translation>
    </message>
</context>
<context>
    <name>TeachActions</name>
    <message>
        <source>Guided quiz</source>
        <translation>Test ghidat</translation>
    </message>
    <message>
        <source>Debugging challenge</source>
        <translation>Provocare de depanare</translation>
    </message>
    <message>
        <source>challenge: {name}</source>
        <translation>provocare: {name}</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>Arătați-mi</translation>
    </message>
    <message>
        <source>Snapshots (*.pickle *.pkl *.json *.gz)</source>
        <translation>Instantanee (*.pickle *.pkl *.json *.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Toate fișierele (*)</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>bytes</source>
        <translation>octeți</translation>
    </message>
    <message>
        <source>not a size: &quot;{text}&quot; (try {big}, {small} or a byte count)</source>
        <translation>nu este o mărime: „{text}” (încercați {big}, {small} sau un număr de octeți)</translation>
    </message>
</context>
<context>
    <name>UserCodeDialog</name>
    <message>
        <source>Your code and libraries</source>
        <translation>Codul dumneavoastră și bibliotecile</translation>
    </message>
    <message>
        <source>A block is charged to the innermost line of your code, with the library line below it (&quot;model.py:88 via einops/_backends.py:288&quot;). Frames under site-packages, dist-packages, the standard library and torch are libraries; the rest is your code. Move folders across that line here, one a line: a path, or a package name such as diffusers.</source>
        <translation>Un bloc este atribuit celei mai interioare linii din codul dumneavoastră, cu linia din bibliotecă sub ea (&quot;model.py:88 via einops/_backends.py:288&quot;). Cadrele din site-packages, dist-packages, biblioteca standard și torch sunt biblioteci; restul este codul dumneavoastră. Mutați aici dosare peste această graniță, câte unul pe linie: o cale sau un nume de pachet, cum ar fi diffusers.</translation>
    </message>
    <message>
        <source>Your code (even inside site-packages):</source>
        <translation>Codul dumneavoastră (chiar și în site-packages):</translation>
    </message>
    <message>
        <source>Libraries (not your code, even outside site-packages):</source>
        <translation>Biblioteci (nu codul dumneavoastră, chiar și în afara site-packages):</translation>
    </message>
</context>
</TS>
