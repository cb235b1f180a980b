"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=auth-user.js.map