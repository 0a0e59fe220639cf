// @vitest-environment happy-dom
import { describeModuleLevelClient } from '../../test-support/frontend/module-level-client.js';

describeModuleLevelClient('happy-dom');
