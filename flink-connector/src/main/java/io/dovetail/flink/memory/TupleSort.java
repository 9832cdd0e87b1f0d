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
package io.dovetail.flink.memory;

import org.apache.flink.api.common.typeutils.TypeComparator;
import org.apache.flink.api.java.tuple.Tuple;
import org.apache.flink.api.java.typeutils.TupleTypeInfoBase;
import org.apache.flink.configuration.AlgorithmOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.operators.sort.ExternalSorter;
import org.apache.flink.runtime.operators.sort.PushSorter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OperatorAttributes;
import org.apache.flink.streaming.api.operators.OperatorAttributesBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.StreamTask;
import org.apache.flink.util.MutableObjectIterator;

import java.util.Arrays;

/**
 * Sorts each subtask's whole input of a batch stream of tuples by several fields, ascending in the
 * order given, with Flink's spilling sort on managed memory, and emits it at the end of input.
 * {@code DataStream#sortPartition} orders by one (flat) field only: a key selector returning a
 * tuple is compared by the tuple's first field.
 */
public final class TupleSort<T extends Tuple> extends AbstractStreamOperator<T>
        implements OneInputStreamOperator<T, T>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TupleTypeInfoBase<T> type;
    private final int[] fields;

    private transient PushSorter<T> sorter;

    TupleSort(TupleTypeInfoBase<T> type, int[] fields) {
        this.type = type;
        this.fields = fields.clone();
    }

    /**
     * Sorts {@code input} (already routed to its sorters), each of its {@code parallelism} subtasks
     * by {@code fields} of the tuples, with the managed memory a {@code sortPartition} gets ({@code
     * execution.sort-partition.memory}).
     */
    public static <T extends Tuple> SingleOutputStreamOperator<T> sort(
            DataStream<T> input, String name, int parallelism, int... fields) {
        @SuppressWarnings("unchecked")
        TupleTypeInfoBase<T> type = (TupleTypeInfoBase<T>) input.getType();
        SingleOutputStreamOperator<T> sorted =
                input.transform(name, type, new TupleSort<>(type, fields))
                        .setParallelism(parallelism);
        int weight =
                Math.max(
                        1,
                        input.getExecutionEnvironment()
                                .getConfiguration()
                                .get(ExecutionOptions.SORT_PARTITION_MEMORY)
                                .getMebiBytes());
        sorted.getTransformation()
                .declareManagedMemoryUseCaseAtOperatorScope(ManagedMemoryUseCase.OPERATOR, weight);
        return sorted;
    }

    @Override
    public void open() throws Exception {
        super.open();
        StreamTask<?, ?> task = getContainingTask();
        Configuration jobConfig = task.getEnvironment().getJobConfiguration();
        double fraction =
                config.getManagedMemoryFractionOperatorUseCaseOfSlot(
                        ManagedMemoryUseCase.OPERATOR,
                        jobConfig,
                        task.getEnvironment().getTaskConfiguration(),
                        task.getUserCodeClassLoader());
        boolean[] ascending = new boolean[fields.length];
        Arrays.fill(ascending, true);
        TypeComparator<T> comparator =
                type.createComparator(fields, ascending, 0, task.getExecutionConfig());
        sorter =
                ExternalSorter.newBuilder(
                                task.getEnvironment().getMemoryManager(),
                                task,
                                type.createSerializer(
                                        task.getExecutionConfig().getSerializerConfig()),
                                comparator,
                                task.getExecutionConfig())
                        .memoryFraction(fraction)
                        .enableSpilling(
                                task.getEnvironment().getIOManager(),
                                jobConfig.get(AlgorithmOptions.SORT_SPILLING_THRESHOLD))
                        .maxNumFileHandles(jobConfig.get(AlgorithmOptions.SPILLING_MAX_FAN))
                        .objectReuse(false)
                        .largeRecords(jobConfig.get(AlgorithmOptions.USE_LARGE_RECORDS_HANDLER))
                        .build();
    }

    @Override
    public void processElement(StreamRecord<T> element) throws Exception {
        sorter.writeRecord(element.getValue());
    }

    @Override
    public void endInput() throws Exception {
        sorter.finishReading();
        MutableObjectIterator<T> sorted = sorter.getIterator();
        StreamRecord<T> record = new StreamRecord<>(null);
        for (T row = sorted.next(); row != null; row = sorted.next()) {
            output.collect(record.replace(row));
        }
    }

    @Override
    public void close() throws Exception {
        if (sorter != null) {
            sorter.close();
        }
        super.close();
    }

    @Override
    public OperatorAttributes getOperatorAttributes() {
        return new OperatorAttributesBuilder().setOutputOnlyAfterEndOfStream(true).build();
    }
}
