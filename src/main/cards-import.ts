import { loadConfigOrReport } from '../runtime/config.js';
import { formatInteger } from '../render/format.js';
import { importCardDump } from '../services/ygoprodeck/card-import.js';
import { StartupError } from '../runtime/startup-error.js';

const USAGE = 'Usage: npm run cards:import -- <cardinfo.json | cardinfo.json.br>  (a saved cardinfo.php response, or an array of cards)';

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length !== 1) {
    console.error(`Give exactly one dump file. ${USAGE}`);
    return 2;
  }
  const config = loadConfigOrReport('Cannot import cards');
  if (!config) return 1;
  try {
    const result = await importCardDump(argv[0]!, config.dataDir);
    const skipped = result.skipped > 0 ? `, ${formatInteger(result.skipped)} skipped as invalid` : '';
    console.log(`Imported ${formatInteger(result.cards)} cards (version ${result.version}${skipped}) into ${config.dataDir}.`);
    return 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(`Import failed: ${error.message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
