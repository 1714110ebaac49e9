// Writes docs/estimate.md: how the estimate (lib/enrichment/estimate.ts) compares with every
// published distribution in lib/enrichment/data/rating-evidence.json, fitted or held out, per
// community and letter, and the rank correlation of the communities' A and E+F+G shares. Run it
// after scripts/fit-rating-model.ts; lib/enrichment/estimate.test.ts checks the file is current.
//   node --import tsx scripts/estimate-evaluation.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluationMarkdown } from "@/lib/enrichment/estimate-evaluation";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
writeFileSync(path.join(root, "docs/estimate.md"), evaluationMarkdown());
console.log("docs/estimate.md written");
