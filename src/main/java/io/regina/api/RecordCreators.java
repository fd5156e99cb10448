package io.regina.api;

import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.module.SimpleValueInstantiators;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;

/**
 * Builds a request record through a method handle made once per record type. Jackson 3 calls a creator
 * with {@code MethodHandle.invokeWithArguments}, which on JDK 17 builds a spreading adapter on every call:
 * 31% of reading an ack's body in the 32 × empty ack+pop profile went to making method types. Binding,
 * coercion and errors are Jackson's own; only the constructor call is swapped, and a constructor that
 * throws is reported as Jackson reports it.
 */
final class RecordCreators extends SimpleValueInstantiators {

    @Override
    public ValueInstantiator modifyValueInstantiator(DeserializationConfig config,
                                                     BeanDescription.Supplier description,
                                                     ValueInstantiator instantiator) {
        if (description.getBeanClass().isRecord() && instantiator.getClass() == StdValueInstantiator.class
                && instantiator.getWithArgsCreator() instanceof AnnotatedConstructor creator) {
            MethodHandle create = spreader(creator.getAnnotated());
            if (create != null) {
                return new Spread((StdValueInstantiator) instantiator, create);
            }
        }
        return instantiator;
    }

    /** The constructor taking its arguments as one array, or null where Jackson's own call is left. */
    private static MethodHandle spreader(Constructor<?> constructor) {
        try {
            return MethodHandles.lookup().unreflectConstructor(constructor)
                    .asSpreader(Object[].class, constructor.getParameterCount())
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    private static final class Spread extends StdValueInstantiator {
        private final transient MethodHandle create;

        Spread(StdValueInstantiator base, MethodHandle create) {
            super(base);
            this.create = create;
        }

        @Override
        public Object createFromObjectWith(DeserializationContext ctxt, Object[] args) {
            try {
                return (Object) create.invokeExact(args);
            } catch (Error e) {
                throw e;
            } catch (Throwable e) {
                throw rewrapCtorProblem(ctxt, e);
            }
        }
    }
}
