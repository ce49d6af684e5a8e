// `npm run cards:import`: a saved card dump imported into DATA_DIR.
import './runtime/check-node.js';

// Loaded once the Node.js version is known to be supported (src/runtime/check-node.ts).
await import('./main/cards-import.js');
