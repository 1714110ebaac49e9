// Password hashing: argon2id (OWASP's first choice), via a prebuilt native binding.
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable with isolatedModules) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
