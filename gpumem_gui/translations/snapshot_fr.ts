<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>Tabs</name>
    <message>
        <source>memory</source>
        <translation>mémoire</translation>
    </message>
    <message>
        <source>allocated by site</source>
        <translation>alloué par site d&apos;appel</translation>
    </message>
    <message>
        <source>cached segments</source>
        <translation>segments en cache</translation>
    </message>
    <message>
        <source>by pool</source>
        <translation>par pool</translation>
    </message>
    <message>
        <source>stack</source>
        <translation>pile</translation>
    </message>
    <message>
        <source>forward stack</source>
        <translation>pile de la passe avant</translation>
    </message>
    <message>
        <source>event</source>
        <translation>événement</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloc</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocs</translation>
    </message>
    <message>
        <source>settings</source>
        <translation>paramètres</translation>
    </message>
    <message>
        <source>span</source>
        <translation>intervalle</translation>
    </message>
    <message>
        <source>flame</source>
        <translation>flammes</translation>
    </message>
</context>
</TS>
