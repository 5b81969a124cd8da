<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ro" sourcelanguage="en">
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
