<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
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
</TS>
