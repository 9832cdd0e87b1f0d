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
package io.dovetail.sql;

import org.apache.flink.api.common.JobID;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.gateway.api.results.ResultSet;
import org.apache.flink.table.gateway.api.results.ResultSetImpl;
import org.apache.flink.table.utils.print.RowDataToStringConverter;

import javax.annotation.Nullable;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The result of one statement: its schema and kind, known once the gateway produced the first page,
 * and its rows, fetched page by page while they are iterated.
 */
final class StatementResult implements Iterator<RowData>, AutoCloseable {

    private static final long POLL_MILLIS = 20;

    private final SqlSession.Pages pages;
    private final Runnable waiting;
    private final Runnable onClose;
    private final ResultSetImpl first;
    private Iterator<RowData> page;
    private @Nullable Long nextToken;

    StatementResult(SqlSession.Pages pages, Runnable waiting, Runnable onClose) {
        this.pages = pages;
        this.waiting = waiting;
        this.onClose = onClose;
        this.first = nextReadyPage(0);
        this.page = first.getData().iterator();
        this.nextToken = first.getNextToken();
    }

    ResolvedSchema schema() {
        return first.getResultSchema();
    }

    RowDataToStringConverter converter() {
        return first.getConverter();
    }

    boolean isQuery() {
        return first.isQueryResult();
    }

    ResultKind kind() {
        return first.getResultKind();
    }

    /** The job the statement ran, if any (not for queries, whose job still runs). */
    @Nullable
    JobID job() {
        return first.getJobID();
    }

    @Override
    public boolean hasNext() {
        while (!page.hasNext() && nextToken != null) {
            ResultSetImpl next = nextReadyPage(nextToken);
            page = next.getData().iterator();
            nextToken = next.getNextToken();
        }
        return page.hasNext();
    }

    @Override
    public RowData next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.next();
    }

    private ResultSetImpl nextReadyPage(long token) {
        while (true) {
            ResultSet result = pages.fetch(token);
            if (result.getResultType() != ResultSet.ResultType.NOT_READY) {
                return (ResultSetImpl) result;
            }
            waiting.run();
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for a result.", e);
            }
        }
    }

    @Override
    public void close() {
        onClose.run();
    }
}
