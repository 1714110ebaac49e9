import { signOutAction } from "./actions";

/** Signs this browser out (the site frame's corner, in the portal and the console). */
export function SignOut({ className }: { className: string }) {
  return (
    <form action={signOutAction}>
      <button
        type="submit"
        className={`rounded-md px-2 py-1 font-medium underline-offset-2 hover:underline ${className}`}
      >
        Sign out
      </button>
    </form>
  );
}
