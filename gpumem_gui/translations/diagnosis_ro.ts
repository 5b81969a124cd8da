<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
<context>
    <name>Tabs</name>
    <message>
        <source>explain</source>
        <translation>explicație</translation>
    </message>
    <message>
        <source>by site</source>
        <translation>pe loc de apel</translation>
    </message>
    <message>
        <source>grows</source>
        <translation>creșteri</translation>
    </message>
</context>
</TS>
