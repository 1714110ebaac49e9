import { SubmitButton } from "./submit-button";

/** A one-button form that posts `id` to a server action: the row and card actions of the portal. */
export function ActionButton({
  action,
  id,
  children,
  pendingText,
  className,
  confirm,
  formClassName,
}: {
  action: (form: FormData) => Promise<void>;
  id: string;
  children: React.ReactNode;
  pendingText: string;
  className: string;
  confirm?: string;
  formClassName?: string;
}) {
  return (
    <form action={action} className={formClassName}>
      <input type="hidden" name="id" value={id} />
      <SubmitButton className={className} pendingText={pendingText} confirm={confirm}>
        {children}
      </SubmitButton>
    </form>
  );
}
