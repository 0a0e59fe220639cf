// @vitest-environment jsdom
import { describeModuleLevelClient } from './test-support/module-level-client.js';

describeModuleLevelClient('jsdom');
