import { SystemTool } from './system-tool.js';

/** Debian's `prometheus` package, which also brings `promtool`. */
export const PROMTOOL = new SystemTool('promtool', 'prometheus', 'REQUIRE_PROMETHEUS', 'Prometheus tests');

/** The Prometheus server itself, from the same package. */
export const PROMETHEUS = new SystemTool('prometheus', 'prometheus', 'REQUIRE_PROMETHEUS', 'Prometheus tests');
