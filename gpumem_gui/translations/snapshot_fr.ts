<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr" sourcelanguage="en">
<context>
    <name>Tabs</name>
    <message>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated by site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cached segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by pool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward stack</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>span</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>flame</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
