// A real SMTP server on loopback (the smtp-server package, port 0) that parses every message it
// accepts with mailparser, for tests that read what the product emailed; it can refuse the next
// messages (a 451, as a busy server answers) to exercise retries.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { eventually } from "./wait";

export interface Inbox {
  /** SMTP_URL for the App. */
  url: string;
  messages: ParsedMail[];
  /** Refuses the next `n` messages with a temporary error. */
  refuse(n: number): void;
  /** The first message to `to` matching `subject`, once it has arrived. */
  receive(to: string, subject?: RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** Addresses a message was sent to (its To header). */
export const recipientsOf = (mail: ParsedMail) =>
  [mail.to ?? []].flat().flatMap((to) => to.value.map((v) => v.address?.toLowerCase() ?? ""));

/** The first http(s) URL in a message's text. */
export const linkIn = (mail: ParsedMail) => /https?:\/\/\S+/.exec(mail.text ?? "")?.[0] ?? null;

export async function startSmtpServer(): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    // Plain SMTP without authentication on loopback, as a development relay.
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (refusals > 0) {
            refusals--;
            return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          }
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse: (n) => void (refusals = n),
    receive: (to, subject) =>
      eventually(`an email to ${to}${subject ? ` (${subject})` : ""}`, () =>
        messages.find((m) => recipientsOf(m).includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? ""))),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
