// The core's plan (Embind plan(), docs/api.md): the runs a set of experiments trains with a run
// config, shared runs trained once. The one place where the page hands a run config to the core
// to plan: configJson is the config as JSON text (state/settings.js's runAllConfig, or an
// experiment's own), names the experiments.
import { core } from '../state/engine.js';
import { planAside } from '../results/analysis.js';

// On the main thread, for a Run press and a config line (one plan): the planned runs, parsed.
// Throws the core's message for settings it refuses.
export const planRuns = (configJson, names) => JSON.parse(core.get().wolab.plan(configJson, JSON.stringify(names)));

// In the analysis worker, for the estimate before Run (several plans of a preset's size take 50
// to 200 ms, a long task on the main thread): a promise of the planned runs, parsed.
export const planRunsAside = async (configJson, names) => JSON.parse(await planAside(configJson, JSON.stringify(names)));
