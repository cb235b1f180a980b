"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=key-value-store.js.map