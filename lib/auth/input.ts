// What people type into the portal's account forms: bounded, printable, refused with a message
// they can act on (a NUL or a 500 KB name is a refusal, never a 500 or a giant log line).
import { DomainError, hasControl } from "@/lib/domain";

/** A refusal of what a person typed in a form (shown to them as it is). */
export const refuse = (detail: string) => new DomainError("validation_error", detail);

export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 1024;
export const MAX_EMAIL = 254;
export const MAX_NAME = 100;

export function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD) throw refuse(`The password needs at least ${MIN_PASSWORD} characters.`);
  if (password.length > MAX_PASSWORD) throw refuse(`The password can have at most ${MAX_PASSWORD} characters.`);
}

export function checkEmail(email: string) {
  const value = email.trim();
  if (value.length > MAX_EMAIL || hasControl(value) || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    throw refuse("Enter a valid email address.");
}

/** A trimmed name of `min`..MAX_NAME printable characters (`min` 0: optional). */
export function checkName(value: string, what: string, min: number): string {
  const name = value.trim().replace(/\s+/g, " ");
  if (hasControl(value)) throw refuse(`The ${what} cannot contain control characters.`);
  if (name.length < min) throw refuse(`Enter your ${what}.`);
  if (name.length > MAX_NAME) throw refuse(`The ${what} can have at most ${MAX_NAME} characters.`);
  return name;
}
