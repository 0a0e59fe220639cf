// @vitest-environment happy-dom
import { describeModuleLevelClient } from './test-support/module-level-client.js';

describeModuleLevelClient('happy-dom');
