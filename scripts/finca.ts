// Operator CLI on the configured database: DATABASE_URL, or the data folder's embedded PostgreSQL (the
// running server's, else started for the command and stopped after it).
//   npm run --silent finca -- keys create --partner "Acme" --mode test   → prints the key as the last line
import { parseArgs } from "node:util";
import { defaultDatabaseOptions, openDatabase, type Database, type DbOrTx } from "@/lib/db";
import { audited, AUDIT_AREAS, auditPage, type Actor, type AuditAction } from "@/lib/audit";
import { createLogger } from "@/lib/observability/logger";
import { createApiKey, keyNamed, listApiKeys, revokeApiKey } from "@/lib/api-keys";
import { ensurePartner, findPartnerByName, listPartners } from "@/lib/partners";
import { decideLiveAccessAndTell } from "@/lib/email";
import { createUser, endSessions, findUserByEmail, resetPassword, setDisabled } from "@/lib/auth/users";
import { checkEmail, checkPassword } from "@/lib/auth/input";
import { directPasswords } from "@/lib/auth/password";
import { DomainError, MODES, ROLES, type Mode, type Role } from "@/lib/domain";
import { loadConfig } from "@/lib/config";
import {
  checkTargets,
  DATASETS,
  datasetById,
  describeLines,
  describeSkips,
  importDataset,
  importFromUrls,
  inspectFile,
  lastingOverrides,
  listDatasets,
  liveRegisters,
  localFile,
  readOverrides,
  registerSettings,
  cadastreIndex,
  cadastreDownloads,
  COPY_SOURCES,
  importCadastre,
  refreshSettings,
  remoteFile,
  type ColumnOverrides,
  type Dataset,
  type FileInspection,
  type ImportFile,
  type ImportProgress,
  type ImportResult,
} from "@/lib/registers";
import { createSources } from "@/lib/enrichment/sources";
import { checkRegisters } from "@/lib/enrichment/sources/check";
import {
  PARTNER_HELP,
  PARTNER_HELP_NOTE,
  partnerCommand,
  UsageError as PartnerUsageError,
} from "@/packages/sdk/src/cli";
import { type HelpEntry, helpText } from "@/packages/sdk/src/cli/help";

const OPERATOR_HELP: readonly HelpEntry[] = [
  { usage: "partners list", text: "List partners with their users, keys and properties" },
  { usage: "partners create --name <name>", text: "Create a partner (no-op if it exists)" },
  {
    usage: "partners live --partner <name> --grant|--refuse",
    text: "Grant live mode (live keys work), or take it away",
  },
  {
    usage: "keys create --partner <name> --mode test|live [--name <label>]",
    text:
      "Create an API key (a test key creates the partner if missing; a live key needs it approved for live mode); " +
      "the key is printed once, alone, as the last line",
  },
  { usage: "keys list [--partner <name>] [--mode test|live]", text: "List keys (visible start only)" },
  { usage: "keys revoke <key id>", text: "Revoke a key" },
  {
    usage: "users create --email <e> --password <p> --role owner|admin|developer|viewer|operator [--partner <name>]",
    text: "Create a portal user: --partner for every role but operator (operators belong to no partner)",
  },
  { usage: "users disable|enable --email <e>", text: "Disable a user (every session ends) or enable again" },
  {
    usage: "users reset-password --email <e>",
    text: "A new random password, printed once as the last line; every session ends",
  },
  { usage: "users sign-out --email <e>", text: "End every session of the user" },
  {
    usage: "audit list [--partner <name>] [--area <area>]",
    text: "The security history, newest 50 rows (an area is the part before the dot: api_key, user, sign_in…)",
  },
  {
    usage: "registers list",
    text:
      "The cadastre index's copies and the register index datasets: format evidence, rows, as_of, last import, " +
      "error; a dataset's community and what was left out",
  },
  {
    usage: [
      "registers import <dataset> (--file <path> ... | --url <url> ...) [--as-of YYYY-MM-DD]",
      "                 [--columns <map.json>] [--dry-run]",
    ],
    text: `Import a dataset from files or downloads (several make one dataset); replaces the previous copy only
      when every file was read. Rows and values that cannot be read are left out and counted by reason. --as-of
      is the publisher's snapshot date from the dataset's metadata; without it, as_of is the latest record's
      date (never the download day). --columns maps the dataset's expected column names to the file's, over
      the lasting ones in REGISTER_COLUMNS_DIR/<dataset>.json. --dry-run writes nothing: it prints each file's format, encoding, header, columns found or missing, sample records
      and what would be left out, and exits 1 when a file lacks a needed column`,
  },
  {
    usage:
      "registers import catastro-inspire|catastro-cat (--file <path> ... | --url <url> ...) [--municipality <code>]",
    text: `Catastro's bulk data into the cadastre index, one municipality's copy (its 5-digit Catastro code, read
      from a CAT file's records or an INSPIRE file's name): INSPIRE CP, BU and AD GML files or their ATOM zips,
      or a CAT file; replaces that copy only when every file was read; as_of is the publisher's (the CAT
      header, else the features' latest date). --url takes Catastro's own hosts only: a zip, or a territorial
      office's ATOM feed with --municipality`,
  },
  {
    usage: "registers check",
    text: "Ask each live register for a known reference: reachable, parsed, latency (needs internet access)",
  },
];

const HELP = `Usage: npm run --silent finca -- <command> [options]

Commands:
${helpText([...OPERATOR_HELP, ...PARTNER_HELP])}

${PARTNER_HELP_NOTE}

The database is DATABASE_URL, else the embedded PostgreSQL of FINCA_DATA_DIR (default ./.data): the
running server's, or started for the command and stopped after it.`;

class UsageError extends Error {}

const usage = (message: string): never => {
  throw new UsageError(message);
};

/** Who acts from the command line, in the security history; its lines go to stderr (stdout is the answer). */
const OPERATOR: Actor = { userId: null, label: "operator (CLI)", address: null };
const history = {
  logger: createLogger({ format: "json", destination: { write: (line: string) => void process.stderr.write(line) } }),
};

function option(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  return typeof value === "string" && value.trim() ? value.trim() : usage(`--${name} is required`);
}

function mode(value: string): Mode {
  return (MODES as readonly string[]).includes(value)
    ? (value as Mode)
    : usage(`--mode must be one of ${MODES.join(", ")}`);
}

async function run(database: Database, argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      partner: { type: "string" },
      mode: { type: "string" },
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      grant: { type: "boolean" },
      refuse: { type: "boolean" },
      file: { type: "string", multiple: true },
      municipality: { type: "string" },
      url: { type: "string", multiple: true },
      "as-of": { type: "string" },
      columns: { type: "string" },
      "dry-run": { type: "boolean" },
      area: { type: "string" },
    },
  });
  const [resource, action, arg] = positionals;
  const db = database.db;
  switch (`${resource} ${action}`) {
    case "partners list":
      console.table(await listPartners(db));
      return;
    case "partners create": {
      const partner = await ensurePartner(db, option(values, "name"));
      console.log(partner.id);
      return;
    }
    case "partners live": {
      const partner = await findPartnerByName(db, option(values, "partner"));
      if (!partner) usage(`no partner named "${values.partner}"`);
      if (Boolean(values.grant) === Boolean(values.refuse)) usage("partners live needs --grant or --refuse");
      const grant = Boolean(values.grant);
      await audited({ db, ...history }, OPERATOR, async (tx) => ({
        // Its owners are emailed (links on PUBLIC_BASE_URL, or the paths alone without one).
        result: await decideLiveAccessAndTell(tx, partner!.id, grant, {
          waiting: false,
          base: loadConfig().PUBLIC_BASE_URL,
        }),
        entry: {
          partnerId: partner!.id,
          action: grant ? ("live_access.approved" as const) : ("live_access.refused" as const),
          target: partner!.name,
        },
      }));
      console.log(`Live mode ${grant ? "granted to" : "refused to"} "${partner!.name}".`);
      return;
    }
    case "keys create": {
      // Checked before anything is made: a refused key must not leave a partner behind.
      const keyMode = mode(option(values, "mode"));
      const name = option(values, "partner");
      const partner =
        keyMode === "live"
          ? ((await findPartnerByName(db, name)) ?? usage(`no partner named "${name}": a live key needs one approved`))
          : await ensurePartner(db, name);
      const { key, apiKey } = await audited({ db, ...history }, OPERATOR, async (tx) => {
        const made = await createApiKey(tx, {
          partnerId: partner.id,
          mode: keyMode,
          name: typeof values.name === "string" ? values.name : `${keyMode} key`,
        });
        const detail = { mode: keyMode };
        return {
          result: made,
          entry: { partnerId: partner.id, action: "api_key.created", target: keyNamed(made.apiKey), detail },
        };
      });
      console.error(`Created ${keyMode} key ${apiKey.id} for "${partner.name}". Store it now: it is not shown again.`);
      console.log(key);
      return;
    }
    case "keys list": {
      const partner = typeof values.partner === "string" ? await findPartnerByName(db, values.partner) : null;
      if (typeof values.partner === "string" && !partner) usage(`no partner named "${values.partner}"`);
      const keys = await listApiKeys(db, {
        partnerId: partner?.id,
        mode: values.mode ? mode(String(values.mode)) : undefined,
      });
      console.table(
        keys.map((k) => ({
          id: k.id,
          start: k.visibleStart,
          mode: k.mode,
          name: k.name,
          created: k.createdAt.toISOString(),
          last_used: k.lastUsedAt?.toISOString() ?? "",
          revoked: k.revokedAt?.toISOString() ?? "",
        })),
      );
      return;
    }
    case "keys revoke": {
      if (!arg) usage("keys revoke needs the key id (see keys list)");
      const revoked = await audited({ db, ...history }, OPERATOR, async (tx) => {
        const key = await revokeApiKey(tx, arg!);
        const entry = key && { partnerId: key.partnerId, action: "api_key.revoked" as const, target: keyNamed(key) };
        return { result: key, entry };
      });
      if (!revoked) usage(`no active key with id ${arg}`);
      console.log(`Revoked ${revoked!.visibleStart}…`);
      return;
    }
    case "users create": {
      const role = option(values, "role");
      if (!(ROLES as readonly string[]).includes(role)) usage(`--role must be one of ${ROLES.join(", ")}`);
      if (role === "operator" && values.partner !== undefined) usage("operators belong to no partner: drop --partner");
      // The portal's rules for an email and a password, and one account an email, before anything is made.
      const [email, password] = [option(values, "email"), option(values, "password")];
      try {
        checkEmail(email);
        checkPassword(password);
      } catch (error) {
        usage(error instanceof Error ? error.message : String(error));
      }
      if (await findUserByEmail(db, email)) usage(`a user with the email ${email} exists already`);
      const partner = role === "operator" ? null : await ensurePartner(db, option(values, "partner"));
      const passwordHash = await directPasswords.hash(password);
      const user = await audited({ db, ...history }, OPERATOR, async (tx) => {
        const made = await createUser(tx, { email, passwordHash, role: role as Role, partnerId: partner?.id ?? null });
        const entry = { partnerId: made.partnerId, action: "user.created" as const, target: made.email };
        return { result: made, entry: { ...entry, detail: { role: made.role } } };
      });
      console.log(user.id);
      return;
    }
    case "users disable":
    case "users enable":
    case "users reset-password":
    case "users sign-out": {
      const user = (await findUserByEmail(db, option(values, "email"))) ?? usage(`no user with email ${values.email}`);
      const recorded = <T>(action: AuditAction, change: (tx: DbOrTx) => Promise<T>) =>
        audited({ db, ...history }, OPERATOR, async (tx) => ({
          result: await change(tx),
          entry: { partnerId: user.partnerId, action, target: user.email },
        }));
      // The operator at the console acts as no portal user, so any account can be disabled.
      if (action === "disable" || action === "enable")
        await recorded(action === "disable" ? "user.disabled" : "user.enabled", (tx) =>
          setDisabled(tx, "operator-cli", user.id, action === "disable"),
        );
      else if (action === "sign-out") await recorded("user.sessions_ended", (tx) => endSessions(tx, user.id));
      else {
        const password = await recorded("password.reset", (tx) => resetPassword(tx, directPasswords, user.id));
        console.error(`New password for ${user.email}; every session of theirs has ended. Pass it on safely.`);
        console.log(password);
        return;
      }
      console.log(`${user.email}: ${action === "sign-out" ? "signed out everywhere" : `${action}d`}`);
      return;
    }
    case "audit list": {
      const partner = typeof values.partner === "string" ? await findPartnerByName(db, values.partner) : null;
      if (typeof values.partner === "string" && !partner) usage(`no partner named "${values.partner}"`);
      const area = typeof values.area === "string" ? values.area : undefined;
      if (area && !AUDIT_AREAS.includes(area)) usage(`--area must be one of ${AUDIT_AREAS.join(", ")}`);
      const page = await auditPage(db, { partnerId: partner?.id, action: area, limit: 50 });
      console.table(
        page.data.map((r) => ({
          at: r.at.toISOString(),
          partner: r.partnerName ?? "",
          actor: r.actor,
          address: r.address ?? "",
          action: r.action,
          target: r.target ?? "",
        })),
      );
      return;
    }
    case "registers list": {
      const copies = await cadastreIndex(db).copies(loadConfig().REGISTER_STALE_DAYS);
      if (copies.length)
        console.table(
          copies.map((c) => ({
            source: c.source,
            municipality: c.municipality,
            evidence: c.evidence.level,
            records: Object.values(c.counts).reduce((a, b) => a + b, 0),
            as_of: c.asOf ?? "",
            stale: c.stale ? "stale" : "",
            imported: c.importedAt?.toISOString() ?? "",
            last_error: c.lastError ?? "",
          })),
        );
      const datasets = await listDatasets(db, loadConfig().REGISTER_STALE_DAYS);
      console.table(
        datasets.map((d) => ({
          dataset: d.id,
          ccaa: d.ccaa,
          evidence: d.evidence.level,
          rows: d.rows,
          skipped: d.skipped,
          as_of: d.asOf ?? "",
          as_of_from:
            d.asOfBasis === "published" ? "publisher" : d.asOfBasis === "latest_record" ? "latest record" : "",
          stale: d.stale ? "stale" : "",
          licence: d.licence.name,
          imported: d.importedAt?.toISOString() ?? "",
          last_error: d.lastError ?? "",
        })),
      );
      for (const d of datasets.filter((d) => Object.keys(d.skips).length)) {
        console.log(
          `${d.id} left out:\n${describeSkips(d.skips)
            .map((l) => `  ${l}`)
            .join("\n")}`,
        );
      }
      return;
    }
    case "registers check": {
      const checks = await checkRegisters(
        createSources(loadConfig(), { live: liveRegisters(registerSettings()) }).live,
        checkTargets(),
      );
      console.table(
        checks.map((c) => ({
          register: c.register,
          source: c.source,
          reference: c.reference,
          reachable: c.reachable,
          parsed: c.parsed,
          latency_ms: c.latencyMs,
          outcome: c.outcome.slice(0, 80),
        })),
      );
      if (checks.some((c) => !c.parsed)) process.exitCode = 1;
      return;
    }
    case "registers import": {
      const copy = COPY_SOURCES.find((c) => c.id === arg);
      if (copy) {
        const files = values.file ?? [];
        const urls = values.url ?? [];
        if (!files.length === !urls.length)
          usage(`registers import ${arg} takes --file <path> (one or more) or --url <url> (one or more)`);
        const sources = files.length
          ? files.map(localFile)
          : await cadastreDownloads(urls, {
              rules: refreshSettings(loadConfig()),
              municipality: values.municipality,
            }).catch((error: Error) => usage(error.message));
        const result = await importCadastre(db, copy.id, sources, values.municipality);
        const counts = Object.entries(result.counts).map(([kind, n]) => `${n} ${kind}`);
        console.log(
          `${copy.id} ${result.municipality}: ${counts.join(", ")}; as of ${result.asOf ?? "unknown"} (${result.asOfFrom})${result.superseded ? "; a later import finished first, this one was discarded" : ""}`,
        );
        for (const [reason, { count, first }] of Object.entries(result.skips))
          console.log(
            `  left out, ${reason.replaceAll("_", " ")}: ${count} (${first.map((p) => `${p.file} line ${p.line}`).join("; ")})`,
          );
        return;
      }
      const dataset =
        (arg && datasetById(arg)) || usage(`registers import needs a dataset: ${DATASETS.map((d) => d.id).join(", ")}`);
      const files = values.file ?? [];
      const urls = values.url ?? [];
      if (!files.length === !urls.length) {
        usage("registers import takes --file <path> (one or more) or --url <url> (one or more)");
      }
      const config = loadConfig();
      const flag = values.columns;
      const lasting = lastingOverrides(config.REGISTER_COLUMNS_DIR, dataset);
      const columns = await Promise.all([lasting, flag ? readOverrides(flag, dataset) : {}])
        .then(([lasting, given]) => ({ ...lasting, ...given }))
        .catch((error: unknown) => (error instanceof DomainError ? usage(error.message) : Promise.reject(error)));
      if (values["dry-run"]) {
        const download = (url: string) => remoteFile(url, refreshSettings(config));
        const sources = files.length ? files.map(localFile) : urls.map(download);
        if (!(await dryRun(dataset, sources, columns))) process.exitCode = 1;
        return;
      }
      const result = await importRegister(database, dataset, files, urls, values["as-of"], columns);
      console.log(
        `${result.dataset}: ${result.rows} records (${result.skipped} rows skipped), as of ${result.asOf ?? "an unknown date"}${result.asOfBasis ? ` (${result.asOfBasis === "published" ? "publisher's date" : "latest record's date"})` : ""}${result.superseded ? "; a later import finished first, this one was discarded" : ""}`,
      );
      console.log(`  ${describeLines(result.lines)}`);
      for (const line of describeSkips(result.skips)) console.log(`  ${line}`);
      return;
    }
    default:
      usage(`unknown command: ${positionals.join(" ") || "(none)"}`);
  }
}

/** A progress line on a terminal (stderr), rewritten in place; nothing when output is piped. */
function progressLine(): ((p: ImportProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  const started = Date.now();
  return ({ file, bytes, size, rows }) => {
    const share = size ? ` ${Math.min(100, Math.floor((bytes / size) * 100))}%` : ` ${(bytes / 1e6).toFixed(1)} MB`;
    const rate = Math.round(rows / Math.max(0.001, (Date.now() - started) / 1000));
    process.stderr.write(
      `\r${file.slice(-60)}${share}  ${rows.toLocaleString("en")} rows  ${rate.toLocaleString("en")} rows/s\x1b[K`,
    );
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

async function importRegister(
  database: Database,
  dataset: Dataset,
  files: string[],
  urls: string[],
  asOf: string | undefined,
  columns: ColumnOverrides,
): Promise<ImportResult> {
  if (asOf !== undefined && !DATE.test(asOf)) usage("--as-of must be a date, YYYY-MM-DD");
  const onProgress = progressLine();
  try {
    if (urls.length) {
      const settings = refreshSettings(loadConfig());
      return await importFromUrls(database.db, dataset, urls, settings, { asOf, onProgress, columns });
    }
    return await importDataset(database.db, dataset, files.map(localFile), { asOf, onProgress, columns });
  } finally {
    if (onProgress) process.stderr.write("\n");
  }
}

const ENCODINGS = { "utf-8": "UTF-8", "windows-1252": "Windows-1252" } as const;

/** One file's dry run, as lines for the terminal. */
function describeInspection(dataset: Dataset, inspection: FileInspection): string[] {
  const { shape, totals } = inspection;
  const lines = [`${dataset.id}: ${inspection.file} (dry run: nothing written)`];
  if (shape) {
    const encoding = shape.encoding?.();
    const layout = [
      shape.format,
      shape.delimiter !== null && `delimiter ${JSON.stringify(shape.delimiter)}`,
      shape.sheet !== null && `sheet ${JSON.stringify(shape.sheet)}`,
      shape.element !== null && `element <${shape.element}>`,
      encoding &&
        `encoding ${ENCODINGS[encoding.encoding]}` +
          (encoding.switchedAtLine ? ` (not UTF-8 from line ${encoding.switchedAtLine})` : ""),
    ];
    lines.push(`  format   ${layout.filter(Boolean).join(", ")}`);
    lines.push(`  header   line ${shape.headerLine}: ${shape.header.map((h) => JSON.stringify(h)).join(", ")}`);
    lines.push("  columns");
    for (const c of shape.match.columns) {
      const quoted = (names: readonly string[], between: string) => names.map((n) => JSON.stringify(n)).join(between);
      const absent = c.required ? "MISSING" : "not in the file";
      const state = c.found !== null ? `found as ${JSON.stringify(c.found)}` : absent;
      const near = c.near.length ? ` (near: ${quoted(c.near, ", ")})` : "";
      const override = c.overridden ? " [override]" : "";
      lines.push(`    ${c.field.padEnd(16)} ${quoted(c.expected, " | ")} → ${state}${near}${override}`);
    }
  }
  for (const record of inspection.samples) {
    const key = record.unit ?? record.parcel ?? record.addressKey;
    lines.push(`  sample   line ${record.sourceRow}: ${record.kind} ${key} ${JSON.stringify(record.data)}`);
  }
  const counts = `${totals.sourceRows} rows: ${inspection.records} records, ${totals.skipped} rows would be left out`;
  lines.push(`  read     ${counts}`);
  lines.push(`  lines    ${describeLines(totals.lines)}`);
  for (const line of describeSkips(totals.skips)) lines.push(`  left out ${line}`);
  if (inspection.error) lines.push(`  REFUSED  ${inspection.error}`);
  return lines;
}

/** Prints each file's dry run; false when a file would be refused. */
async function dryRun(dataset: Dataset, files: ImportFile[], columns: ColumnOverrides): Promise<boolean> {
  let ok = true;
  for (const file of files) {
    const inspection = await inspectFile(dataset, file, columns);
    console.log(describeInspection(dataset, inspection).join("\n"));
    ok &&= inspection.error === null;
  }
  return ok;
}

async function main() {
  const argv = process.argv.slice(2);
  if (!argv.length || argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return;
  }
  let database: Database | undefined;
  try {
    // A partner's tools (@finca/sdk's own CLI): they talk to the server, never to the database.
    if (await partnerCommand(argv)) return;
    const options = defaultDatabaseOptions();
    // The running server's embedded PostgreSQL is joined, not refused.
    database = await openDatabase({ ...options, embedded: { ...options.embedded, join: true } });
    await run(database, argv);
  } catch (error) {
    const usageError = error instanceof UsageError || error instanceof PartnerUsageError;
    console.error(usageError ? `finca: ${(error as Error).message}\n\n${HELP}` : `finca: ${(error as Error).message}`);
    process.exitCode = usageError ? 2 : 1;
  } finally {
    await database?.close();
  }
}

await main();
