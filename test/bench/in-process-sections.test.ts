import { smokeTestSections } from './smoke.js';

smokeTestSections('in-process');
