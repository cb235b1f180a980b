"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.healthRoutes = healthRoutes;
const express_1 = require("express");
const CHECK_TIMEOUT_MS = 2000;
async function probe(check) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
    });
    try {
        await Promise.race([check(), timeout]);
        return 'ok';
    }
    catch {
        return 'unavailable';
    }
    finally {
        clearTimeout(timer);
    }
}
/** Liveness (the process answers) and readiness (its database and key-value store answer). */
function healthRoutes({ sequelize, store }) {
    const router = (0, express_1.Router)();
    router.get('/health', (_req, res) => {
        res.json({ status: 'ok' });
    });
    router.get('/health/ready', async (_req, res) => {
        const [database, keyValueStore] = await Promise.all([probe(() => sequelize.query('SELECT 1')), probe(() => store.ping())]);
        const ready = database === 'ok' && keyValueStore === 'ok';
        res.status(ready ? 200 : 503);
        if (!ready)
            res.setHeader('Retry-After', '5');
        res.json({ status: ready ? 'ok' : 'unavailable', database, store: keyValueStore, storeKind: store.kind });
    });
    return router;
}
//# sourceMappingURL=health.routes.js.map