/** `node bench/web-main.ts`: the web budgets alone, without the API runs. */
import { webScenario } from './web.ts';

await webScenario();
