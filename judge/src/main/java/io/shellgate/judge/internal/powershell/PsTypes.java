package io.shellgate.judge.internal.powershell;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The .NET members a line may call without asking: by declaring type and name, the methods that
 * only compute a value (string and number helpers, dates, paths as text, encodings) and what they
 * return, and the types of properties worth following ({@code [DateTime]::Now},
 * {@code (Get-Item x).Name}). A method that is not listed for the type of its target asks, and so
 * does any method on a target whose type is not known here; reading a property is allowed
 * anywhere. Types are lower-case full names; a collection is typed by its elements, as
 * PowerShell calls a method on every element of a collection that lacks it. A conversion to a
 * type ({@code [T]x}, {@code x -as [T]}) runs the type's {@code Parse} or constructor, so it is
 * judged by the same entries: see {@link #conversion}.
 */
final class PsTypes {

    static final String STRING = "system.string";
    static final String OBJECT = "system.object";
    static final String ITEM = "system.io.filesysteminfo";
    static final String CUSTOM = "system.management.automation.pscustomobject";
    static final String HASHTABLE = "system.collections.hashtable";
    static final String DATETIME = "system.datetime";

    /**
     * A member: its kind, the type of what it returns (null: not followed), and whether its first
     * argument is a path whose item it reaches ({@code [IO.FileInfo]::new(path)}).
     */
    record Member(boolean method, boolean isStatic, String result, boolean pathArgument) {}

    /** The table's mark for a type PowerShell converts to by itself, running none of the type's members. */
    private static final String CAST = "[cast]";

    private static final Map<String, Map<String, Member>> MEMBERS = new HashMap<>();
    private static final Map<String, String> PARENTS = new HashMap<>();
    private static final Map<String, String> ACCELERATORS = new HashMap<>();

    static {
        // instance methods plain, .property, ::static method, :.static property; >type is what it returns, $ the type itself;
        // (path) after a name: its first argument is a path it reaches; [cast]: PowerShell converts to the type itself
        String table = """
                system.object: ToString>system.string Equals>system.boolean GetHashCode>system.int32 GetType>system.type [cast]
                system.string: Trim>$ TrimStart>$ TrimEnd>$ ToLower>$ ToUpper>$ ToLowerInvariant>$ ToUpperInvariant>$ Substring>$ \
                  Replace>$ Remove>$ Insert>$ PadLeft>$ PadRight>$ Normalize>$ Split>$ Contains>system.boolean \
                  StartsWith>system.boolean EndsWith>system.boolean IndexOf>system.int32 LastIndexOf>system.int32 \
                  IndexOfAny>system.int32 LastIndexOfAny>system.int32 CompareTo>system.int32 ToCharArray>system.char \
                  IsNormalized>system.boolean .Length>system.int32 ::Format>$ ::Join>$ ::Concat>$ ::Compare>system.int32 \
                  ::IsNullOrEmpty>system.boolean ::IsNullOrWhiteSpace>system.boolean ::Equals>system.boolean :.Empty>$ ::new>$
                system.char: CompareTo>system.int32 ::IsDigit ::IsLetter ::IsLetterOrDigit ::IsWhiteSpace ::IsUpper ::IsLower \
                  ::IsPunctuation ::IsControl ::ToUpper>$ ::ToLower>$ ::GetNumericValue ::ConvertFromUtf32>system.string ::Parse>$
                system.int16: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.uint16: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.uint32: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.uint64: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.sbyte: CompareTo ::Parse>$ ::TryParse
                system.single: CompareTo ::Parse>$ ::TryParse ::IsNaN ::IsInfinity
                system.numerics.biginteger: CompareTo ::Parse>$ ::TryParse
                system.int32: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.int64: CompareTo ::Parse>$ ::TryParse :.MaxValue>$ :.MinValue>$
                system.double: CompareTo ::Parse>$ ::TryParse ::IsNaN ::IsInfinity :.MaxValue>$ :.MinValue>$
                system.decimal: CompareTo ::Parse>$ ::TryParse ::Round>$ ::Truncate>$
                system.byte: CompareTo ::Parse>$
                system.boolean: CompareTo ::Parse>$ ::TryParse
                system.math: ::Abs ::Acos ::Asin ::Atan ::Atan2 ::Ceiling ::Cos ::Cosh ::Exp ::Floor ::Log ::Log10 ::Log2 ::Max \
                  ::Min ::Pow ::Round ::Sign ::Sin ::Sinh ::Sqrt ::Tan ::Tanh ::Truncate ::Clamp ::BigMul :.PI :.E
                system.convert: ::ToBase64String>system.string ::FromBase64String>system.byte ::ToHexString>system.string \
                  ::FromHexString>system.byte ::ToInt16 ::ToInt32>system.int32 ::ToInt64>system.int64 ::ToUInt16 ::ToUInt32 \
                  ::ToUInt64 ::ToDouble>system.double ::ToDecimal ::ToSingle ::ToString>system.string ::ToBoolean ::ToByte \
                  ::ToChar>system.char ::ToDateTime>system.datetime ::ChangeType
                system.bitconverter: ::ToString>system.string ::GetBytes>system.byte ::ToInt32 ::ToInt64
                system.datetime: AddDays>$ AddHours>$ AddMinutes>$ AddSeconds>$ AddMilliseconds>$ AddMonths>$ AddYears>$ \
                  AddTicks>$ Add>$ Subtract ToUniversalTime>$ ToLocalTime>$ ToShortDateString>system.string \
                  ToLongDateString>system.string ToShortTimeString>system.string ToLongTimeString>system.string ToFileTime \
                  ToFileTimeUtc ToOADate ToBinary CompareTo GetDateTimeFormats .Date>$ :.Now>$ :.UtcNow>$ :.Today>$ \
                  :.MinValue>$ :.MaxValue>$ ::Parse>$ ::ParseExact>$ ::TryParse ::TryParseExact ::DaysInMonth ::IsLeapYear \
                  ::FromFileTime>$ ::FromFileTimeUtc>$ ::FromOADate>$ ::SpecifyKind>$ ::Compare ::new>$
                system.timespan: Add>$ Subtract>$ Negate>$ Duration>$ CompareTo ::FromDays>$ ::FromHours>$ ::FromMinutes>$ \
                  ::FromSeconds>$ ::FromMilliseconds>$ ::FromTicks>$ ::Parse>$ ::TryParse ::new>$ :.Zero>$
                system.datetimeoffset: ToUnixTimeSeconds ToUnixTimeMilliseconds ToUniversalTime>$ ToLocalTime>$ AddDays>$ \
                  AddHours>$ AddSeconds>$ :.Now>$ :.UtcNow>$ ::FromUnixTimeSeconds>$ ::FromUnixTimeMilliseconds>$ ::Parse>$
                system.guid: ToByteArray ::NewGuid>$ ::Parse>$ ::TryParse :.Empty>$ ::new>$
                system.version: CompareTo ::Parse>$ ::TryParse ::new>$
                system.management.automation.semanticversion: CompareTo ::Parse>$ ::TryParse
                system.uri: GetLeftPart>system.string MakeRelativeUri>$ IsBaseOf ::EscapeDataString>system.string \
                  ::UnescapeDataString>system.string ::EscapeUriString>system.string ::IsWellFormedUriString ::TryCreate ::new>$
                system.net.webutility: ::HtmlEncode>system.string ::HtmlDecode>system.string ::UrlEncode>system.string \
                  ::UrlDecode>system.string
                system.io.path: ::GetFileName>system.string ::GetExtension>system.string ::GetDirectoryName>system.string \
                  ::GetFileNameWithoutExtension>system.string ::Combine>system.string ::Join>system.string \
                  ::GetFullPath>system.string ::ChangeExtension>system.string ::HasExtension ::IsPathRooted \
                  ::IsPathFullyQualified ::GetPathRoot>system.string ::GetRelativePath>system.string \
                  ::GetInvalidFileNameChars>system.char ::GetInvalidPathChars>system.char ::GetRandomFileName>system.string \
                  ::GetTempPath>system.string ::EndsInDirectorySeparator ::TrimEndingDirectorySeparator>system.string \
                  :.DirectorySeparatorChar :.AltDirectorySeparatorChar :.PathSeparator :.VolumeSeparatorChar
                system.text.encoding: GetString>system.string GetBytes>system.byte GetByteCount GetCharCount GetChars>system.char \
                  GetPreamble>system.byte GetMaxByteCount :.UTF8>$ :.ASCII>$ :.Unicode>$ :.UTF32>$ :.UTF7>$ \
                  :.BigEndianUnicode>$ :.Default>$ :.Latin1>$ ::GetEncoding>$
                system.text.regularexpressions.regex: IsMatch Match>system.text.regularexpressions.match \
                  Matches>system.text.regularexpressions.match Replace>system.string Split>system.string GetGroupNames>system.string \
                  GetGroupNumbers ::Escape>system.string ::Unescape>system.string ::IsMatch \
                  ::Match>system.text.regularexpressions.match ::Matches>system.text.regularexpressions.match \
                  ::Replace>system.string ::Split>system.string ::new>$
                system.text.regularexpressions.match: NextMatch>$ Result>system.string .Value>system.string
                system.text.stringbuilder: Append>$ AppendLine>$ AppendFormat>$ AppendJoin>$ Insert>$ Remove>$ Replace>$ Clear>$ \
                  ::new>$
                system.collections.hashtable: ContainsKey ContainsValue Contains Clone>$ GetEnumerator Add Remove Clear ::new>$
                system.collections.arraylist: Add AddRange Insert Remove RemoveAt Clear Contains IndexOf Sort Reverse ToArray \
                  GetRange>$ Clone>$ ::new>$
                system.collections.generic.list: Add AddRange Insert Remove RemoveAt Clear Contains IndexOf Sort Reverse ToArray \
                  GetRange>$ ::new>$
                system.array: ::IndexOf ::LastIndexOf :.Empty [cast]
                system.collections.specialized.ordereddictionary: Contains ::new>$
                system.management.automation.pscustomobject: [cast]
                system.management.automation.psobject: [cast]
                system.management.automation.scriptblock: [cast]
                system.management.automation.switchparameter: [cast]
                system.management.automation.psreference: [cast]
                system.type: [cast]
                system.void: [cast]
                system.xml.xmldocument: [cast]
                system.io.fileinfo: ::new(path)>$
                system.io.directoryinfo: ::new(path)>$
                system.io.filesysteminfo: .Name>system.string .FullName>system.string .Extension>system.string \
                  .BaseName>system.string .DirectoryName>system.string .Directory>system.io.filesysteminfo \
                  .Parent>system.io.filesysteminfo .LastWriteTime>system.datetime .CreationTime>system.datetime \
                  .LastAccessTime>system.datetime .LastWriteTimeUtc>system.datetime .Length>system.int64 .Mode>system.string \
                  .Attributes .Exists .IsReadOnly .LinkType .Target .PSPath>system.string .PSParentPath>system.string \
                  .PSChildName>system.string .PSIsContainer .Root>system.io.filesysteminfo .ResolvedTarget .UnixFileMode
                system.management.automation.pathinfo: .Path>system.string .ProviderPath>system.string .Drive .Provider
                microsoft.powershell.commands.matchinfo: RelativePath>system.string .Line>system.string .LineNumber \
                  .Path>system.string .Filename>system.string .Pattern>system.string .Matches>system.text.regularexpressions.match
                system.management.automation.psversionhashtable: ContainsKey ContainsValue Contains \
                  .PSVersion>system.management.automation.semanticversion .PSEdition>system.string .OS>system.string \
                  .Platform>system.string
                system.diagnostics.process: .Name>system.string .ProcessName>system.string .Id .CPU .WS .PM .VM .NPM .SI \
                  .Handles .Path>system.string .StartTime>system.datetime .Company .Description .MainWindowTitle
                microsoft.powershell.commands.genericmeasureinfo: .Count .Sum .Average .Maximum .Minimum .Property
                microsoft.powershell.commands.textmeasureinfo: .Lines .Words .Characters
                microsoft.powershell.commands.filehashinfo: .Hash>system.string .Algorithm>system.string .Path>system.string
                system.management.automation.engineintrinsics: .SessionState>system.management.automation.sessionstate \
                  .InvokeProvider>system.management.automation.providerintrinsics \
                  .InvokeCommand>system.management.automation.commandinvocationintrinsics
                system.management.automation.sessionstate: .InvokeProvider>system.management.automation.providerintrinsics \
                  .PSVariable>system.management.automation.psvariableintrinsics .Path>system.management.automation.pathintrinsics
                system.management.automation.providerintrinsics: .Item>system.management.automation.itemcmdletproviderintrinsics \
                  .ChildItem>system.management.automation.childitemcmdletproviderintrinsics \
                  .Content>system.management.automation.contentcmdletproviderintrinsics \
                  .Property>system.management.automation.propertycmdletproviderintrinsics
                system.management.automation.pathintrinsics: .CurrentLocation>system.management.automation.pathinfo \
                  .CurrentFileSystemLocation>system.management.automation.pathinfo
                """;
        for (String line : table.strip().split("\n")) {
            int colon = line.indexOf(':');
            String type = line.substring(0, colon).strip();
            Map<String, Member> members = new HashMap<>();
            for (String token : line.substring(colon + 1).strip().split(" +")) {
                if (token.equals(CAST)) {
                    members.put(CAST, new Member(false, true, type, false));
                    continue;
                }
                boolean pathArgument = token.contains("(path)");
                token = token.replace("(path)", "");
                boolean isStatic = token.startsWith("::") || token.startsWith(":.");
                boolean method = !token.startsWith(".") && !token.startsWith(":.");
                String body = token.startsWith("::") || token.startsWith(":.") ? token.substring(2)
                        : token.startsWith(".") ? token.substring(1) : token;
                int arrow = body.indexOf('>');
                String name = arrow < 0 ? body : body.substring(0, arrow);
                String result = arrow < 0 ? null : body.substring(arrow + 1).equals("$") ? type : body.substring(arrow + 1);
                members.put((isStatic ? "::" : "") + name.toLowerCase(Locale.ROOT), new Member(method, isStatic, result, pathArgument));
            }
            MEMBERS.put(type, members);
        }
        for (String t : new String[] {"system.io.fileinfo", "system.io.directoryinfo"}) {
            PARENTS.put(t, ITEM);
        }
        PARENTS.put("system.text.utf8encoding", "system.text.encoding");
        PARENTS.put("system.text.unicodeencoding", "system.text.encoding");
        PARENTS.put("system.text.asciiencoding", "system.text.encoding");
        String accelerators = """
                string=system.string char=system.char int=system.int32 int32=system.int32 long=system.int64 \
                int64=system.int64 double=system.double float=system.single single=system.single decimal=system.decimal \
                byte=system.byte bool=system.boolean boolean=system.boolean datetime=system.datetime timespan=system.timespan \
                guid=system.guid version=system.version regex=system.text.regularexpressions.regex array=system.array \
                hashtable=system.collections.hashtable ordered=system.collections.hashtable pscustomobject=%s \
                psobject=system.management.automation.psobject scriptblock=system.management.automation.scriptblock \
                type=system.type uri=system.uri bigint=system.numerics.biginteger \
                semver=system.management.automation.semanticversion datetimeoffset=system.datetimeoffset \
                io.fileinfo=system.io.fileinfo io.directoryinfo=system.io.directoryinfo xml=system.xml.xmldocument \
                ref=system.management.automation.psreference switch=system.management.automation.switchparameter
                """.formatted(CUSTOM);
        for (String pair : accelerators.strip().split("\\s+")) {
            String[] kv = pair.split("=");
            ACCELERATORS.put(kv[0], kv[1]);
        }
    }

    private PsTypes() {}

    /**
     * The full name of a type as written in brackets ({@code [IO.Path]}, {@code [string]},
     * {@code [System.Collections.Generic.List[string]]}), lower case, generic arguments dropped.
     */
    static String canonical(String written) {
        String t = written.strip().toLowerCase(Locale.ROOT);
        int generic = t.indexOf('[');
        if (generic > 0) {
            t = t.substring(0, generic);
        }
        int tick = t.indexOf('`');
        if (tick > 0) {
            t = t.substring(0, tick);
        }
        String accelerated = ACCELERATORS.get(t);
        if (accelerated != null) {
            return accelerated;
        }
        return t.startsWith("system.") || t.startsWith("microsoft.") || MEMBERS.containsKey(t) ? t : "system." + t;
    }

    /**
     * A member of {@code type} (null: not known), looked up on the type, its parents and
     * {@link Object}; null when it is not on the list.
     */
    static Member member(String type, String name, boolean isStatic) {
        if (name == null) {
            return null;
        }
        String key = (isStatic ? "::" : "") + name.toLowerCase(Locale.ROOT);
        for (String t = type; t != null; t = PARENTS.get(t)) {
            Member m = MEMBERS.getOrDefault(t, Map.of()).get(key);
            if (m != null) {
                return m;
            }
        }
        return isStatic ? null : MEMBERS.get(OBJECT).get(key);
    }

    /**
     * What a conversion to {@code type} runs, when the table lists it as only computing a value:
     * PowerShell converts by the type's {@code Parse}, else its constructor (they are looked up on
     * the type itself: neither is inherited), except for the types it converts to by itself
     * ({@code [pscustomobject]}, {@code [ref]}, {@code [xml]}...). Null: the conversion asks.
     */
    static Member conversion(String type) {
        Map<String, Member> members = MEMBERS.getOrDefault(type, Map.of());
        for (String key : new String[] {CAST, "::parse", "::new"}) {
            Member m = members.get(key);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** Whether a type's members are listed here (so a name that is not among them is not a property of it). */
    static boolean known(String type) {
        return type != null && MEMBERS.containsKey(type) || PARENTS.containsKey(type);
    }
}
