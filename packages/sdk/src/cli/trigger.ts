// `finca trigger <event type>`: makes test-mode data whose processing sends that event, as
// `stripe trigger` does, so a `finca listen` session (and the registered test endpoints) receive a
// real one, signed as every delivery is. Over HTTP with the partner's test key, never the database.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { scenarioReference } from "@/lib/enrichment/sources/sandbox";
import { clientOf, UsageError } from "./batch.js";
import type { HelpEntry } from "./help.js";

export const TRIGGER_HELP: readonly HelpEntry[] = [
  {
    usage: "trigger property.enriched|batch.completed",
    text: `Make test-mode data that sends that event (a new sandbox property that finishes on its durable retry;
      a two-item portfolio), e.g. for \`listen\`; test keys only`,
  },
];

// A sandbox reference whose cadastre answers only on the durable retry: the property is
// registered as enriching, and property.enriched follows a few seconds later. A new parcel each
// time, so the create registers rather than answers an existing property.
const fresh = () => scenarioReference("9100", randomUUID());

export async function triggerCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { key: { type: "string" }, "base-url": { type: "string" } },
  });
  const { finca, key } = await clientOf(values);
  // Live data would reach the real registers: never for a test of one's receiver.
  if (!key.startsWith("finca_test_")) throw new UsageError("trigger works with test keys only");
  const [type] = positionals;
  if (type === "property.enriched") {
    const property = await finca.properties.create(fresh());
    console.log(
      `Registered ${property.cadastral_reference} (${property.property_id}), ${property.status}: property.enriched follows when its enrichment finishes, in a few seconds.`,
    );
  } else if (type === "batch.completed") {
    const { batch } = await finca.batches.create({
      name: "finca trigger",
      items: [{ cadastral_reference: fresh() }, { cadastral_reference: fresh() }],
    });
    console.log(
      `Submitted batch ${batch.batch_id} (2 items): batch.completed follows when both are final, in a few seconds.`,
    );
  } else throw new UsageError("trigger takes property.enriched or batch.completed");
}
