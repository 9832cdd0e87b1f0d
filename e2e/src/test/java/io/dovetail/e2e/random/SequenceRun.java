/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.dovetail.e2e.random;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.flink.sink.FaultyFileSystem;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

/**
 * One sequence on one table: runs each step's statements through Flink SQL, updates the model as
 * the docs say, and after every step checks the table against it: {@code SELECT _ROW_ID, *} and a
 * random projection and filter equal the model, the schema is the model's, the next row id is the
 * model's (never back), the layout invariants hold, and every few steps Apache Paimon 1.4.2 reads
 * the model's rows (tables without deletion vectors). A difference is a {@link Divergence}.
 */
final class SequenceRun implements Probe {

    private static final int PAIMON_EVERY = 3;

    private final long seed;
    private final TableConfig config;
    private final String table;
    private final Sessions sessions;
    private final PaimonWorkbench paimon;
    private final Stats stats;
    private final ModelTable model;
    private final Generator checks;
    private final Script script;
    private final List<Op> executed = new ArrayList<>();
    private List<Row> lastResult = List.of();
    private long nextRowIdSeen;

    SequenceRun(
            long seed,
            TableConfig config,
            String table,
            Sessions sessions,
            PaimonWorkbench paimon,
            Stats stats)
            throws Exception {
        this.seed = seed;
        this.config = config;
        this.table = table;
        this.sessions = sessions;
        this.paimon = paimon;
        this.stats = stats;
        this.model = new ModelTable(ModelSchema.initial(config.partitioned()));
        this.checks = new Generator(seed ^ 0x5EEDL, table, config);
        String create = config.createTable(table, model.schema);
        this.script = new Script(seed, config, create);
        Sessions.run(sessions.writes, create);
        stats.sequences.incrementAndGet();
    }

    ModelTable model() {
        return model;
    }

    List<Op> executed() {
        return executed;
    }

    String script() {
        return script.toString();
    }

    @Override
    public String table() {
        return table;
    }

    @Override
    public List<Row> query(String sql) throws Exception {
        return Sessions.run(sessions.reads, sql);
    }

    @Override
    public List<Long> snapshotIds() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (Row row : query("SELECT snapshot_id FROM " + Sql.name(table + "$snapshots"))) {
            ids.add((Long) row.getField(0));
        }
        ids.sort(null);
        return ids;
    }

    @Override
    public List<Row> lastResult() {
        return lastResult;
    }

    /** Runs one step and checks the table; a difference from the model is a divergence. */
    void run(Op op) throws Divergence {
        if (!op.applicable(model)) {
            return;
        }
        executed.add(op);
        stats.steps.incrementAndGet();
        int index = executed.size();
        try {
            checkAfterStep(execute(index, op), index);
        } catch (Divergence d) {
            script.comment("DIVERGENCE: " + d.getMessage());
            throw new Divergence("step " + index + " (" + op + "): " + d.getMessage(), d);
        } catch (Exception | Error e) {
            script.comment("DIVERGENCE: " + e);
            throw new Divergence("step " + index + " (" + op + ") failed the test: " + e, e);
        }
    }

    /** Runs {@code op}, checks its outcome and applies it to the model; the next row id after. */
    private long execute(int index, Op op) throws Exception {
        if (op instanceof ConcurrentWrites writes) {
            return executeAtOnce(index, writes);
        }
        if (op instanceof CrashedWrite crashed) {
            return executeCrashing(index, crashed);
        }
        long floor = model.nextRowId;
        op.prepare(this);
        String refusal = op.refusal(model);
        Effect effect = op.effect(model.copy());
        List<String> statements = op.statements(model);
        script.step(index, op, statements);
        stats.ran(op);
        Throwable error = null;
        try {
            for (String statement : statements) {
                lastResult = Sessions.run(session(op), statement);
            }
        } catch (Throwable t) {
            error = t;
        }
        if (refusal != null) {
            stats.refusals.incrementAndGet();
            if (error == null) {
                throw new Divergence("the statement was not refused (expected: " + refusal + ")");
            }
            if (!messages(error).toLowerCase().contains(refusal)) {
                throw new Divergence(
                        "the statement was refused without saying '"
                                + refusal
                                + "': "
                                + messages(error),
                        error);
            }
            compareRows(read());
            return floor;
        }
        if (error != null) {
            throw new Divergence("the statement failed: " + messages(error), error);
        }
        Read actual = read();
        effect.apply(model, actual.rowIdOfKey(), floor);
        op.finish(model, this);
        if (!op.exercised()) {
            stats.idle(op);
        }
        compareRows(actual);
        return floor + effect.newRowIds();
    }

    /**
     * Starts the writes of {@code step} at once, each in a session of its own (a streaming one for
     * a streaming insert): the statements before a write's last set it up (a source table) and run
     * first; then the last ones are started in order, each submitted without waiting, but for a
     * procedure's CALL, last, which returns once the procedure ends. A write that fails must say
     * "conflict"; the table must then equal the model of the committed writes in one of the orders
     * {@link #outcomes} gives. The next row id after.
     */
    private long executeAtOnce(int index, ConcurrentWrites step) throws Exception {
        List<Op> writes = step.writes;
        List<List<String>> statements = new ArrayList<>();
        List<TableEnvironment> writers = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            Op write = writes.get(i);
            write.prepare(this);
            statements.add(write.statements(model));
            writers.add(write.streaming() ? sessions.streaming : sessions.concurrent.get(i));
        }
        script.comment("the writes of the next step ran at once, each in a session of its own");
        script.step(index, step, step.statements(model));
        stats.ran(step);
        stats.concurrentSteps.incrementAndGet();
        for (int i = 0; i < writes.size(); i++) {
            List<String> own = statements.get(i);
            for (String setup : own.subList(0, own.size() - 1)) {
                Sessions.run(writers.get(i), setup);
            }
        }
        List<TableResult> jobs = new ArrayList<>();
        Throwable[] errors = new Throwable[writes.size()];
        for (int i = 0; i < writes.size(); i++) {
            // planned here, one after the other (Flink's planner is not to be shared between
            // threads), each submitted without waiting: the jobs run and commit at once
            List<String> own = statements.get(i);
            try {
                jobs.add(writers.get(i).executeSql(own.get(own.size() - 1)));
            } catch (RuntimeException e) {
                jobs.add(null); // a procedure that failed
                errors[i] = e;
            }
        }
        List<Op> committed = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            try {
                if (errors[i] == null) {
                    jobs.get(i).await();
                }
            } catch (ExecutionException e) {
                errors[i] = e.getCause();
            }
            if (errors[i] == null) {
                committed.add(writes.get(i));
                outcomes.add(writes.get(i).kind() + " " + (i + 1) + " committed");
                continue;
            }
            String why = messages(errors[i]);
            if (!why.toLowerCase().contains("conflict")) {
                throw new Divergence(
                        "a write run at once failed without saying 'conflict': " + why, errors[i]);
            }
            stats.conflicts.incrementAndGet();
            outcomes.add(writes.get(i).kind() + " " + (i + 1) + " refused: conflict");
        }
        script.comment(String.join(", ", outcomes));
        Read actual = read();
        List<ModelTable> candidates = outcomes(committed, actual);
        for (ModelTable candidate : candidates) {
            if (candidate.render().equals(actual.rows())) {
                model.restore(candidate);
                compareRows(actual);
                return model.nextRowId;
            }
        }
        throw new Divergence(
                "the writes run at once ("
                        + String.join(", ", outcomes)
                        + ") left rows that no order of them gives; against the first order:\n"
                        + Diff.of(candidates.get(0).render(), actual.rows()));
    }

    /**
     * The models the committed writes may leave: for each order, one after the other (each computed
     * on what the previous left) and, when they write no cell in common, each computed on the
     * snapshot they started from (they committed side by side, as snapshot isolation allows). Rows
     * they insert get new row ids in any interleaving (a streaming insert commits at every
     * checkpoint): at or above the next row id before the step, each once.
     */
    private List<ModelTable> outcomes(List<Op> committed, Read actual) throws Divergence {
        List<ModelTable> models = new ArrayList<>();
        for (List<Op> order : orders(committed)) {
            ModelTable serial = model.copy();
            for (Op write : order) {
                write.effect(serial.copy()).apply(serial, actual.rowIdOfKey(), model.nextRowId);
            }
            models.add(serial);
            List<Effect> effects = new ArrayList<>();
            for (Op write : order) {
                effects.add(write.effect(model.copy()));
            }
            if (effects.size() == 2 && !effects.get(0).writesACellOf(effects.get(1))) {
                ModelTable isolated = model.copy();
                for (Effect effect : effects) {
                    effect.apply(isolated, actual.rowIdOfKey(), model.nextRowId);
                }
                models.add(isolated);
            }
        }
        return models;
    }

    /**
     * Runs the write of {@code step} with its commit crashing before or after it publishes its
     * snapshot (Flink may restart the job once): it must succeed, applied once, or fail with the
     * injected crash, applied exactly if a snapshot was published; never two snapshots.
     */
    private long executeCrashing(int index, CrashedWrite step) throws Exception {
        long floor = model.nextRowId;
        Op write = step.write;
        write.prepare(this);
        Effect effect = write.effect(model.copy());
        List<String> statements = write.statements(model);
        script.comment(
                "the next step's commit crashed "
                        + (step.beforePublishing ? "before" : "after")
                        + " publishing its snapshot (Flink restarted the job once)");
        script.step(index, step, statements);
        stats.ran(step);
        long before = latestSnapshotId();
        int publication = FaultyFileSystem.publications.get() + 1;
        (step.beforePublishing ? FaultyFileSystem.crashBefore : FaultyFileSystem.crashAfter)
                .add(publication);
        Throwable error = null;
        try {
            for (String statement : statements) {
                lastResult = Sessions.run(sessions.crashing, statement);
            }
        } catch (Throwable t) {
            error = t;
        } finally {
            FaultyFileSystem.crashBefore.remove(publication);
            FaultyFileSystem.crashAfter.remove(publication);
        }
        if (error != null && !messages(error).contains("Injected crash")) {
            throw new Divergence("the write failed otherwise: " + messages(error), error);
        }
        long published = latestSnapshotId() - before;
        script.comment(
                (error == null ? "it succeeded" : "it failed")
                        + ", snapshots published: "
                        + published);
        if (published > 1) {
            throw new Divergence("the write published " + published + " snapshots, not one");
        }
        stats.crashes.incrementAndGet();
        Read actual = read();
        if (published == 0) {
            compareRows(actual);
            return floor;
        }
        effect.apply(model, actual.rowIdOfKey(), floor);
        write.finish(model, this);
        compareRows(actual);
        return floor + effect.newRowIds();
    }

    /** Every order of {@code ops}. */
    private static List<List<Op>> orders(List<Op> ops) {
        if (ops.size() <= 1) {
            return List.of(ops);
        }
        List<List<Op>> orders = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            List<Op> rest = new ArrayList<>(ops);
            Op first = rest.remove(i);
            for (List<Op> tail : orders(rest)) {
                List<Op> order = new ArrayList<>();
                order.add(first);
                order.addAll(tail);
                orders.add(order);
            }
        }
        return orders;
    }

    private TableEnvironment session(Op op) {
        return op.streaming() ? sessions.streaming : op.query() ? sessions.reads : sessions.writes;
    }

    // ---- checks ----

    /** A read of every row: rendered rows, the columns, and row id by key. */
    record Read(List<String> rows, List<Column> columns, Map<Long, Long> rowIdOfKey) {}

    private Read read() throws Exception {
        TableResult result =
                sessions.reads.executeSql(MaintenanceOps.TimeTravel.query(table, null));
        List<String> columns = result.getResolvedSchema().getColumnNames();
        int key = columns.subList(1, columns.size()).indexOf(ModelSchema.KEY) + 1;
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        }
        Map<Long, Long> rowIdOfKey = new HashMap<>();
        for (Row row : rows) {
            if (key > 0 && row.getField(key) != null) {
                Long previous = rowIdOfKey.put((Long) row.getField(key), (Long) row.getField(0));
                if (previous != null) {
                    throw new Divergence(
                            "two rows have k = "
                                    + row.getField(key)
                                    + ": row ids "
                                    + previous
                                    + " and "
                                    + row.getField(0));
                }
            }
        }
        return new Read(
                FlinkRows.render(rows), result.getResolvedSchema().getColumns(), rowIdOfKey);
    }

    private void checkSchema(List<Column> columns) throws Divergence {
        List<String> actual = new ArrayList<>();
        for (Column c : columns.subList(1, columns.size())) {
            actual.add(c.getName() + " " + c.getDataType().getLogicalType().asSerializableString());
        }
        List<String> expected = new ArrayList<>();
        for (Field f : model.schema.columns()) {
            expected.add(Sql.name(f.name()).replace("`", "") + " " + f.type().sql());
        }
        List<String> normalized = new ArrayList<>();
        for (String a : actual) {
            normalized.add(a.replace("VARCHAR(2147483647)", "STRING").replace("`", ""));
        }
        List<String> wanted = new ArrayList<>();
        for (String e : expected) {
            wanted.add(e.replace("`", ""));
        }
        if (!normalized.equals(wanted)) {
            throw new Divergence(
                    "the table's columns are " + normalized + ", the model's " + wanted);
        }
    }

    private void compareRows(Read actual) throws Divergence {
        checkSchema(actual.columns());
        List<String> expected = model.render();
        if (!expected.equals(actual.rows())) {
            throw new Divergence(
                    "SELECT _ROW_ID, * differs from the model:\n"
                            + Diff.of(expected, actual.rows()));
        }
    }

    private long latestSnapshotId() throws Exception {
        List<Long> ids = snapshotIds();
        return ids.isEmpty() ? 0 : ids.get(ids.size() - 1);
    }

    private void checkAfterStep(long expectedNext, int index) throws Exception {
        List<Row> snapshots =
                query("SELECT snapshot_id, next_row_id FROM " + Sql.name(table + "$snapshots"));
        TreeMap<Long, Long> nextRowIds = new TreeMap<>();
        for (Row row : snapshots) {
            nextRowIds.put((Long) row.getField(0), (Long) row.getField(1));
        }
        model.history.keySet().retainAll(nextRowIds.keySet());
        long previous = 0;
        for (Map.Entry<Long, Long> snapshot : nextRowIds.entrySet()) {
            if (snapshot.getValue() < previous) {
                throw new Divergence(
                        "snapshot "
                                + snapshot.getKey()
                                + " has next row id "
                                + snapshot.getValue()
                                + ", below "
                                + previous
                                + " of an older snapshot: "
                                + nextRowIds);
            }
            previous = snapshot.getValue();
        }
        long next = nextRowIds.isEmpty() ? 0 : nextRowIds.lastEntry().getValue();
        if (next < nextRowIdSeen) {
            throw new Divergence(
                    "the next row id moved back from " + nextRowIdSeen + " to " + next);
        }
        if (next != expectedNext) {
            throw new Divergence(
                    "the next row id is "
                            + next
                            + ", expected "
                            + expectedNext
                            + " (every new row id handed out once, none wasted)");
        }
        nextRowIdSeen = next;
        model.nextRowId = next;
        if (!nextRowIds.isEmpty()) {
            model.history.put(nextRowIds.lastKey(), new TreeMap<>(model.rows));
        }
        LayoutInvariants.check(this, model, next);
        List<Expr> projection = checks.projection(model);
        Pred filter = checks.condition(model, null, 2);
        List<String> expected = model.query(projection, filter);
        String sql =
                "SELECT _ROW_ID, "
                        + String.join(", ", projection.stream().map(Expr::sql).toList())
                        + " FROM "
                        + Sql.name(table)
                        + " WHERE "
                        + filter.sql();
        List<String> actual = FlinkRows.render(query(sql));
        if (!expected.equals(actual)) {
            script.append(sql);
            throw new Divergence(
                    "a filtered query differs from the model:\n"
                            + sql
                            + "\n"
                            + Diff.of(expected, actual));
        }
        if (config.paimonReadable() && index % PAIMON_EVERY == 0) {
            checkPaimon();
        }
    }

    /** Paimon 1.4.2 reads the model's columns and rows. */
    private void checkPaimon() throws Exception {
        if (!config.paimonReadable() || latestSnapshotId() == 0) {
            return;
        }
        if (paimonSkipsRenamedFiles()) {
            stats.paimonReadsSkipped.incrementAndGet();
            return;
        }
        stats.paimonReads.incrementAndGet();
        List<String> columns = PaimonReads.columns(paimon, table);
        if (!columns.equals(model.schema.names())) {
            throw new Divergence(
                    "Paimon 1.4.2 reads columns "
                            + columns
                            + ", the model has "
                            + model.schema.names());
        }
        List<String> expected = model.render();
        List<String> actual = PaimonReads.rows(paimon, table);
        if (!expected.equals(actual)) {
            throw new Divergence(
                    "Paimon 1.4.2 reads other rows than the model:\n" + Diff.of(expected, actual));
        }
    }

    /**
     * Whether a live partial-column file wrote only columns renamed since: Paimon 1.4.2 skips such
     * a file (it matches write columns by name) and reads older values, a bug of its own
     * (UpdateInteropTest shows it); Dovetail reads them by field id.
     */
    private boolean paimonSkipsRenamedFiles() throws Exception {
        Set<String> names = new HashSet<>(model.schema.names());
        for (Row row :
                query(
                        "SELECT write_cols FROM "
                                + Sql.name(table + "$files")
                                + " WHERE write_cols IS NOT NULL")) {
            if (Arrays.stream((String[]) row.getField(0)).noneMatch(names::contains)) {
                return true;
            }
        }
        return false;
    }

    static String messages(Throwable error) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            sb.append(t.getClass().getSimpleName())
                    .append(": ")
                    .append(t.getMessage())
                    .append("\n");
        }
        return sb.toString();
    }
}
