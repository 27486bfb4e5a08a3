package dev.operatorstarter.cache;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Reads and writes one reference field of a fabric8 model class for {@link Compaction}, fast on
 * every JDK. From JDK 18 on, {@link Field#get} and {@link Field#set} run on method handles, which the
 * JIT cannot inline when the {@code Field} is not a constant (as in a plan walked in a loop): each
 * call goes through the method-handle invokers. Where the class declares the field's plain
 * {@code getX}/{@code setX} pair, this calls them through small classes spun by
 * {@link LambdaMetafactory} instead, an ordinary interface call the JIT compiles like any other.
 * Where the pair is missing, has other types, or is overridden below the field's class (as
 * {@code IntOrString.setValue} is), it falls back to the opened {@code Field}.
 */
record FieldAccess(Function<Object, Object> getter, BiConsumer<Object, Object> setter) {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);
    private static final MethodType SETTER = MethodType.methodType(void.class, Object.class, Object.class);

    /**
     * Access to {@code field} (declared by {@code type} or a superclass, already opened with
     * {@code setAccessible}) of objects of {@code type}.
     */
    static FieldAccess of(Class<?> type, Field field) {
        Method getter = method(type, field, "get", field.getType(), new Class<?>[0]);
        Method setter = method(type, field, "set", void.class, field.getType());
        if (getter != null && setter != null) {
            try {
                return new FieldAccess(spin(Function.class, "apply", GETTER, getter),
                        spin(BiConsumer.class, "accept", SETTER, setter));
            } catch (Throwable e) {
                // a class the lookup cannot reach: fall back to the field below
            }
        }
        return reflective(field);
    }

    /** Access through the opened {@code field} alone. */
    static FieldAccess reflective(Field field) {
        return new FieldAccess(object -> {
            try {
                return field.get(object);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + field, e);
            }
        }, (object, value) -> {
            try {
                field.set(object, value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot write " + field, e);
            }
        });
    }

    /**
     * The public method {@code prefix + Field} of {@code type} taking {@code parameters} and returning
     * {@code returns}, if the field's own class declares it and nothing below overrides it.
     */
    private static Method method(Class<?> type, Field field, String prefix, Class<?> returns, Class<?>... parameters) {
        String name = field.getName();
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) {
            return null;
        }
        try {
            Method method = type.getMethod(prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1),
                    parameters);
            boolean plain = method.getDeclaringClass() == field.getDeclaringClass() && method.getReturnType() == returns
                    && !Modifier.isStatic(method.getModifiers()) && Modifier.isPublic(type.getModifiers())
                    && Modifier.isPublic(field.getDeclaringClass().getModifiers());
            return plain ? method : null;
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static <F> F spin(Class<F> face, String name, MethodType erased, Method method) throws Throwable {
        MethodHandle target = LOOKUP.unreflect(method);
        return (F) LambdaMetafactory.metafactory(LOOKUP, name, MethodType.methodType(face), erased, target,
                target.type()).getTarget().invoke();
    }
}
