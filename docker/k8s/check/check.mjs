// Checks every object in docker/k8s/*.yaml (kustomization.yaml aside) against the Kubernetes
// schemas of npm's kubernetes-models (wrong types, missing required fields, bad formats) and
// their TypeScript types (unknown fields), then what no schema states: the probes, limits,
// grace and selectors this project relies on.
//   cd docker/k8s/check && npm ci && node check.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const folder = join(here, "..");
let failures = 0;
let checked = 0;

function fail(where, message) {
  console.log(`FAIL ${where}: ${message}`);
  failures++;
}

// apps/v1 -> kubernetes-models/apps/v1/Deployment; v1 -> kubernetes-models/v1/Service.
function model(apiVersion, kind) {
  return require(`kubernetes-models/${apiVersion}/${kind}`)[kind];
}

const objects = [];
for (const file of readdirSync(folder).filter((f) => f.endsWith(".yaml")).sort()) {
  if (file === "kustomization.yaml") continue;
  for (const doc of parseAllDocuments(readFileSync(join(folder, file), "utf8"))) {
    if (doc.errors.length) {
      fail(file, doc.errors.map(String).join("; "));
      continue;
    }
    const obj = doc.toJS();
    if (!obj) continue;
    const where = `${file} ${obj.kind}/${obj.metadata?.name}`;
    try {
      const Model = model(obj.apiVersion, obj.kind);
      new Model(obj).validate();
      console.log(`ok   ${where} (${obj.apiVersion})`);
      checked++;
      objects.push(obj);
    } catch (e) {
      fail(where, e.message);
    }
  }
}

// The schemas let unknown fields through (as the API server does without strict field
// validation); the models' TypeScript types do not: each object as a typed literal, compiled
// with tsc, fails on a misspelt or misplaced field.
{
  const lines = [];
  objects.forEach((o, i) => {
    const group = o.apiVersion;
    lines.push(`import type { I${o.kind} as T${i} } from "kubernetes-models/${group}/${o.kind}";`);
  });
  objects.forEach((o, i) => lines.push(`export const o${i}: T${i} = ${JSON.stringify(o, null, 1)};`));
  const file = join(here, "manifests.generated.ts");
  writeFileSync(file, lines.join("\n") + "\n");
  try {
    execFileSync(join(here, "node_modules/.bin/tsc"), ["--noEmit", "--strict", "--module", "commonjs",
      "--moduleResolution", "node", "--target", "es2020", "--skipLibCheck", file], { encoding: "utf8" });
    console.log(`ok   ${objects.length} objects type-check against kubernetes-models' types (no unknown fields)`);
  } catch (e) {
    fail("types", (e.stdout || e.message).trim());
  } finally {
    rmSync(file, { force: true });
  }
}

// The project's own rules, which no schema states.
const find = (kind) => objects.find((o) => o.kind === kind);
const deploy = find("Deployment");
const expect = (cond, what) => {
  if (cond) console.log(`ok   ${what}`);
  else fail("rule", what);
};
for (const kind of ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Ingress"])
  expect(find(kind), `${kind} present`);
if (deploy) {
  const pod = deploy.spec.template.spec;
  const c = pod.containers[0];
  const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
  const graceMs = Number(env.PUZZLED_GRACE_MS ?? 30000);
  const preStop = Number(c.lifecycle?.preStop?.exec?.command?.[1] ?? c.lifecycle?.preStop?.sleep?.seconds ?? 0);
  expect(c.readinessProbe?.httpGet?.path === "/readyz", "readiness probe on /readyz");
  expect(c.livenessProbe?.httpGet?.path === "/healthz", "liveness probe on /healthz");
  expect(preStop > 0, `a preStop pause (${preStop} s)`);
  expect(pod.terminationGracePeriodSeconds > preStop + graceMs / 1000,
    `terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} > preStop ${preStop} s + drain grace ${graceMs / 1000} s`);
  expect(c.resources?.requests?.cpu && c.resources?.requests?.memory && c.resources?.limits?.cpu &&
    c.resources?.limits?.memory, "resource requests and limits");
  expect(pod.securityContext?.runAsNonRoot === true && pod.securityContext?.runAsUser > 0, "runs as non-root");
  expect(c.securityContext?.readOnlyRootFilesystem === true, "read-only root filesystem");
  const svc = find("Service");
  expect(svc && Object.entries(svc.spec.selector).every(([k, v]) => deploy.spec.template.metadata.labels[k] === v),
    "the Service selects the Deployment's pods");
  const pdb = find("PodDisruptionBudget");
  expect(pdb && Object.entries(pdb.spec.selector.matchLabels).every(([k, v]) => deploy.spec.template.metadata.labels[k] === v),
    "the PodDisruptionBudget selects the Deployment's pods");
  const hpa = find("HorizontalPodAutoscaler");
  expect(hpa && hpa.spec.scaleTargetRef.name === deploy.metadata.name &&
    hpa.spec.metrics.some((m) => m.resource?.name === "cpu"), "the HorizontalPodAutoscaler scales it on CPU");
}
console.log(`${checked} objects checked against the schemas, ${failures} failures`);
process.exit(failures ? 1 : 0);
