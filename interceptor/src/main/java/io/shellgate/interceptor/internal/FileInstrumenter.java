package io.shellgate.interceptor.internal;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Puts a check at the start of the JDK's file-writing methods: {@code FileOutputStream} and
 * {@code RandomAccessFile} (every {@code java.io} write opens through them), the Unix file-system
 * provider of {@code java.nio.file} (channels, streams, moves, copies, deletions, new directories
 * and links) and {@code java.io.File}'s own changes. The check calls {@link FileGuard} by name
 * through the system class loader (the JDK's classes cannot name it) and through a method handle,
 * so that the guard's own exception reaches the caller as it is. Reads are told apart in the
 * inserted code, before any call out, so that opening a jar to load a class is never checked.
 *
 * <p>Written with the bytecode library's class reader and writer only, not its advice: this
 * runs in every JVM the agent starts in, at its start, and the advice's type descriptions made
 * that start about a second longer (docs/benchmarks.md). The class format stays as it was.
 */
final class FileInstrumenter {

    private static final String GUARD = "io.shellgate.interceptor.internal.FileGuard";
    private static final String STRING = "java/lang/String";
    private static final String OBJECT = "java/lang/Object";
    private static final String SET = "java/util/Set";
    private static final String OPTION = "java/nio/file/StandardOpenOption";
    private static final String PATH = "java/nio/file/Path";
    /** How a local becomes the guard's String argument: as it is, {@code String.valueOf(path)}, {@code file.getPath()}. */
    private static final int STRING_LOCAL = 0;
    private static final int PATH_LOCAL = 1;
    private static final int FILE_LOCAL = 2;

    private FileInstrumenter() {}

    /** The class with its checks; an error when it has none of the methods to check. */
    static byte[] transform(String internalName, byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        // no lambdas here: each would spin a class at every JVM's start
        Counting visitor = new Counting(writer, internalName);
        reader.accept(visitor, ClassReader.EXPAND_FRAMES);
        if (visitor.changed == 0) {
            throw new IllegalStateException(internalName + " has none of the methods the file guard checks");
        }
        return writer.toByteArray();
    }

    /** Puts each method's check in, counting the methods changed. */
    private static final class Counting extends ClassVisitor {
        private final String owner;
        int changed;

        Counting(ClassVisitor next, String owner) {
            super(Opcodes.ASM9, next);
            this.owner = owner;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            Check check = check(owner, name, descriptor, access);
            if (check == null) {
                return mv;
            }
            changed++;
            return new AtStart(mv, new Emitter(mv, owner, descriptor), check);
        }
    }

    /** Writes a method's check before its own code. */
    private static final class AtStart extends MethodVisitor {
        private final Emitter emitter;
        private final Check check;

        AtStart(MethodVisitor next, Emitter emitter, Check check) {
            super(Opcodes.ASM9, next);
            this.emitter = emitter;
            this.check = check;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            emitter.emit(check);
        }
    }

    /** The checks put at the start of a method. */
    enum Check {
        /** {@code FileOutputStream.open(String, boolean)}: always a write. */
        WRITE,
        /** {@code RandomAccessFile.open(String, int)}: a write when the mode has {@code O_RDWR} (2). */
        WRITE_IF_READ_WRITE,
        /** {@code File.delete}, {@code mkdir}, {@code createNewFile}: false when refused, as these methods fail. */
        FILE_SELF,
        /** {@code File.renameTo(File)}: both ends; false when refused. */
        FILE_RENAME,
        /** The provider's channels: a write when the options have WRITE, APPEND or DELETE_ON_CLOSE. */
        CHANNEL,
        /** A provider operation that changes its first path (delete, create a directory or link). */
        FIRST_PATH,
        /** {@code move}: both paths (a move of a gate file away is a deletion). */
        BOTH_PATHS,
        /** {@code copy}: its target only. */
        TARGET_PATH
    }

    /** The check for a method of a guarded class, or null when the method is not checked. */
    static Check check(String owner, String name, String descriptor, int access) {
        if ((access & Opcodes.ACC_STATIC) != 0) {
            return null;
        }
        Type[] args = Type.getArgumentTypes(descriptor);
        boolean stringFirst = args.length > 0 && args[0].getDescriptor().equals("L" + STRING + ";");
        boolean pathFirst = args.length > 0 && args[0].getDescriptor().equals("L" + PATH + ";");
        boolean privateOpen = name.equals("open") && (access & Opcodes.ACC_PRIVATE) != 0 && args.length == 2 && stringFirst;
        switch (owner) {
            case "java/io/FileOutputStream":
                return privateOpen ? Check.WRITE : null;
            case "java/io/RandomAccessFile":
                return privateOpen && args[1].getSort() == Type.INT ? Check.WRITE_IF_READ_WRITE : null;
            case "java/io/File":
                if (args.length == 0 && (name.equals("delete") || name.equals("mkdir") || name.equals("createNewFile"))
                        && Type.getReturnType(descriptor).getSort() == Type.BOOLEAN) {
                    return Check.FILE_SELF;
                }
                return name.equals("renameTo") && args.length == 1 && args[0].getDescriptor().equals("Ljava/io/File;")
                        ? Check.FILE_RENAME : null;
            case "sun/nio/fs/UnixFileSystemProvider":
                if (!pathFirst) {
                    return null;
                }
                switch (name) {
                    case "newByteChannel", "newFileChannel", "newAsynchronousFileChannel":
                        return args.length >= 2 && args[1].getDescriptor().equals("L" + SET + ";") ? Check.CHANNEL : null;
                    case "implDelete", "createDirectory", "createSymbolicLink", "createLink":
                        return Check.FIRST_PATH;
                    case "move", "copy":
                        if (args.length != 3 || !args[1].getDescriptor().equals("L" + PATH + ";")) {
                            return null;
                        }
                        return name.equals("move") ? Check.BOTH_PATHS : Check.TARGET_PATH;
                    default:
                        return null;
                }
            default:
                return null;
        }
    }

    /** Writes the inserted code of one method. */
    private static final class Emitter {
        final MethodVisitor mv;
        /** The method's locals at its start: {@code this} and its arguments, as frames name them. */
        private final Object[] locals;

        Emitter(MethodVisitor mv, String owner, String descriptor) {
            this.mv = mv;
            Type[] args = Type.getArgumentTypes(descriptor);
            Object[] l = new Object[args.length + 1];
            l[0] = owner;
            for (int i = 0; i < args.length; i++) {
                Type t = args[i];
                l[i + 1] = switch (t.getSort()) {
                    case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
                    case Type.LONG -> Opcodes.LONG;
                    case Type.DOUBLE -> Opcodes.DOUBLE;
                    case Type.FLOAT -> Opcodes.FLOAT;
                    default -> t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName();
                };
            }
            this.locals = l;
        }

        /** The code of {@code check}. */
        void emit(Check check) {
            switch (check) {
                case WRITE -> guard("write", 1, STRING_LOCAL);
                case WRITE_IF_READ_WRITE -> {
                    Label read = new Label();
                    mv.visitVarInsn(Opcodes.ILOAD, 2);
                    mv.visitInsn(Opcodes.ICONST_2);
                    mv.visitInsn(Opcodes.IAND);
                    mv.visitJumpInsn(Opcodes.IFEQ, read);
                    guard("write", 1, STRING_LOCAL);
                    resume(read);
                }
                case FILE_SELF -> {
                    Label go = new Label();
                    refuses(0);
                    mv.visitJumpInsn(Opcodes.IFEQ, go);
                    mv.visitInsn(Opcodes.ICONST_0);
                    mv.visitInsn(Opcodes.IRETURN);
                    resume(go);
                }
                case FILE_RENAME -> {
                    Label refuse = new Label();
                    Label go = new Label();
                    refuses(0);
                    mv.visitJumpInsn(Opcodes.IFNE, refuse);
                    mv.visitVarInsn(Opcodes.ALOAD, 1);
                    mv.visitJumpInsn(Opcodes.IFNULL, go);
                    refuses(1);
                    mv.visitJumpInsn(Opcodes.IFEQ, go);
                    frame(refuse);
                    mv.visitInsn(Opcodes.ICONST_0);
                    mv.visitInsn(Opcodes.IRETURN);
                    resume(go);
                }
                case CHANNEL -> {
                    Label write = new Label();
                    Label read = new Label();
                    for (String option : new String[] {"WRITE", "APPEND", "DELETE_ON_CLOSE"}) {
                        mv.visitVarInsn(Opcodes.ALOAD, 2);
                        mv.visitFieldInsn(Opcodes.GETSTATIC, OPTION, option, "L" + OPTION + ";");
                        mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, SET, "contains", "(L" + OBJECT + ";)Z", true);
                        mv.visitJumpInsn(Opcodes.IFNE, write);
                    }
                    mv.visitJumpInsn(Opcodes.GOTO, read);
                    frame(write);
                    guard("writeNio", 1, PATH_LOCAL);
                    resume(read);
                }
                case FIRST_PATH -> guard("writeNio", 1, PATH_LOCAL);
                case BOTH_PATHS -> {
                    guard("writeNio", 1, PATH_LOCAL);
                    guard("writeNio", 2, PATH_LOCAL);
                }
                case TARGET_PATH -> guard("writeNio", 2, PATH_LOCAL);
            }
        }

        /** {@code FileGuard.METHOD(local)}, the local made a String as {@code kind} says; its result dropped. */
        private void guard(String method, int local, int kind) {
            call(method, local, kind);
            mv.visitInsn(Opcodes.POP);
        }

        /** {@code FileGuard.refuses(local.getPath())} for a File local, as an int on the stack. */
        private void refuses(int local) {
            call("refuses", local, FILE_LOCAL);
            mv.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Boolean");
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/Boolean", "booleanValue", "()Z", false);
        }

        /**
         * {@code MethodHandles.publicLookup().unreflect(Class.forName(GUARD, true, system loader)
         * .getMethod(METHOD, String.class)).invokeWithArguments(new Object[] {ARG})}: its result on the stack.
         */
        private void call(String method, int local, int kind) {
            mv.visitLdcInsn(GUARD);
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/ClassLoader", "getSystemClassLoader",
                    "()Ljava/lang/ClassLoader;", false);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Class", "forName",
                    "(L" + STRING + ";ZLjava/lang/ClassLoader;)Ljava/lang/Class;", false);
            mv.visitLdcInsn(method);
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Class");
            mv.visitInsn(Opcodes.DUP);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitLdcInsn(Type.getObjectType(STRING));
            mv.visitInsn(Opcodes.AASTORE);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/Class", "getMethod",
                    "(L" + STRING + ";[Ljava/lang/Class;)Ljava/lang/reflect/Method;", false);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "publicLookup",
                    "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
            mv.visitInsn(Opcodes.SWAP);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandles$Lookup", "unreflect",
                    "(Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;", false);
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
            mv.visitInsn(Opcodes.DUP);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitVarInsn(Opcodes.ALOAD, local);
            if (kind == PATH_LOCAL) {
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, STRING, "valueOf", "(L" + OBJECT + ";)L" + STRING + ";", false);
            } else if (kind == FILE_LOCAL) {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/io/File", "getPath", "()L" + STRING + ";", false);
            }
            mv.visitInsn(Opcodes.AASTORE);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeWithArguments",
                    "([L" + OBJECT + ";)L" + OBJECT + ";", false);
        }

        /** A frame at {@code label}: the method's locals at its start, an empty stack. */
        void frame(Label label) {
            mv.visitLabel(label);
            mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
        }

        /**
         * Where the method's own code goes on: a frame, and a {@code nop} so that the method's own
         * first frame (a loop at its start) never falls on the same offset.
         */
        void resume(Label label) {
            frame(label);
            mv.visitInsn(Opcodes.NOP);
        }
    }
}
