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

import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layout invariants of a data-evolution table, read from {@code t$row_groups} and {@code
 * t$files}: groups are contiguous row-id ranges, disjoint and below the next row id; every file of
 * a group covers exactly the group's range (so every column of every row has one provider, the
 * newest file holding it, and two files holding a column never tie on sequence number); every live
 * row of the model lies in a group, and the groups' positions not deleted are exactly the model's
 * rows.
 */
final class LayoutInvariants {

    private LayoutInvariants() {}

    private record Group(long first, long last, long rows, long deleted, Row[] files) {}

    static void check(Probe probe, ModelTable model, long nextRowId) throws Exception {
        String t = probe.table();
        List<Group> groups = new ArrayList<>();
        for (Row r :
                probe.query(
                        "SELECT first_row_id, last_row_id, row_count, deleted_rows, files FROM "
                                + Sql.name(t + "$row_groups"))) {
            groups.add(
                    new Group(
                            (Long) r.getField(0),
                            (Long) r.getField(1),
                            (Long) r.getField(2),
                            (Long) r.getField(3),
                            (Row[]) r.getField(4)));
        }
        groups.sort(Comparator.comparingLong(Group::first));
        Map<String, long[]> files = new HashMap<>();
        for (Row r :
                probe.query(
                        "SELECT file_path, first_row_id, last_row_id, record_count FROM "
                                + Sql.name(t + "$files"))) {
            String path = (String) r.getField(0);
            long[] previous =
                    files.put(
                            path.substring(path.lastIndexOf('/') + 1),
                            new long[] {
                                (Long) r.getField(1), (Long) r.getField(2), (Long) r.getField(3)
                            });
            if (previous != null) {
                throw new Divergence("t$files lists file " + path + " twice");
            }
        }
        long previousLast = -1;
        long live = 0;
        Set<String> grouped = new HashSet<>();
        for (Group g : groups) {
            String range = "group [" + g.first() + ", " + g.last() + "]";
            if (g.first() > g.last() || g.rows() != g.last() - g.first() + 1) {
                throw new Divergence(range + " has row_count " + g.rows());
            }
            if (g.first() <= previousLast) {
                throw new Divergence(range + " overlaps the group ending at " + previousLast);
            }
            if (g.last() >= nextRowId) {
                throw new Divergence(range + " reaches the next row id " + nextRowId);
            }
            if (g.deleted() < 0 || g.deleted() > g.rows()) {
                throw new Divergence(range + " has deleted_rows " + g.deleted());
            }
            previousLast = g.last();
            live += g.rows() - g.deleted();
            Map<String, Set<Long>> sequencesByColumn = new HashMap<>();
            for (Row file : g.files()) {
                String name = (String) file.getField(0);
                long[] meta = files.get(name);
                if (meta == null || !grouped.add(name)) {
                    throw new Divergence(range + ": file " + name + " is not once in t$files");
                }
                if (meta[0] != g.first() || meta[1] != g.last() || meta[2] != g.rows()) {
                    throw new Divergence(
                            range
                                    + ": file "
                                    + name
                                    + " covers ["
                                    + meta[0]
                                    + ", "
                                    + meta[1]
                                    + "] with "
                                    + meta[2]
                                    + " records");
                }
                Object[] columns = (Object[]) file.getField(1);
                long sequence = (Long) file.getField(3);
                for (Object column : columns == null ? new Object[0] : columns) {
                    if (!sequencesByColumn
                            .computeIfAbsent((String) column, c -> new HashSet<>())
                            .add(sequence)) {
                        throw new Divergence(
                                range
                                        + ": two files providing column "
                                        + column
                                        + " have sequence number "
                                        + sequence
                                        + " "
                                        + Arrays.toString(g.files()));
                    }
                }
            }
        }
        if (grouped.size() != files.size()) {
            throw new Divergence(
                    "t$files has " + files.size() + " files, the groups " + grouped.size());
        }
        if (live != model.rows.size()) {
            throw new Divergence(
                    "the groups hold "
                            + live
                            + " rows not deleted, the model "
                            + model.rows.size());
        }
        int g = 0;
        for (long rowId : model.rows.keySet()) {
            while (g < groups.size() && groups.get(g).last() < rowId) {
                g++;
            }
            if (g == groups.size() || groups.get(g).first() > rowId) {
                throw new Divergence("row id " + rowId + " of the model is in no group");
            }
        }
    }
}
