import type { z } from "zod";

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
};

/**
 * `value` with the members of each object in the order `schema` declares them, the order a create
 * answers in. jsonb keeps its own order (shorter keys first), so whatever went through the database
 * is put back in order before it is answered or sent. Members the schema does not name keep their
 * place after the named ones; nothing is validated or dropped here.
 */
export function inSchemaOrder<T>(schema: z.ZodType, value: T): T {
  return ordered(schema, value) as T;
}

function ordered(schema: z.ZodType, value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case "nullable":
    case "optional":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
      return def.innerType ? ordered(def.innerType, value) : value;
    case "pipe":
      return def.in ? ordered(def.in, value) : value;
    case "array":
      return Array.isArray(value) && def.element ? value.map((v) => ordered(def.element!, v)) : value;
    case "object": {
      if (Array.isArray(value) || !def.shape) return value;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [member, memberSchema] of Object.entries(def.shape))
        if (Object.hasOwn(source, member)) out[member] = ordered(memberSchema, source[member]);
      for (const member of Object.keys(source)) if (!Object.hasOwn(out, member)) out[member] = source[member];
      return out;
    }
    default:
      return value;
  }
}
