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

import org.apache.flink.table.gateway.api.utils.SqlGatewayException;
import org.apache.flink.table.gateway.service.utils.SqlExecutionException;
import org.apache.flink.util.ExceptionUtils;

import java.util.ArrayList;
import java.util.List;

/**
 * The message a user needs from a failed statement: the first message below the gateway's own
 * wrappers ("Failed to execute the operation ..."), then the root cause's if it adds something.
 */
final class ErrorMessage {

    private ErrorMessage() {}

    static String of(Throwable failure) {
        List<String> messages = new ArrayList<>();
        Throwable first = failure;
        while (isGatewayWrapper(first) && first.getCause() != null) {
            first = first.getCause();
        }
        messages.add(describe(first));
        Throwable root = ExceptionUtils.stripCompletionException(rootCause(first));
        String rootMessage = describe(root);
        if (root != first && !messages.get(0).contains(rootMessage)) {
            messages.add("Caused by: " + rootMessage);
        }
        return String.join(System.lineSeparator(), messages);
    }

    private static boolean isGatewayWrapper(Throwable failure) {
        return failure instanceof SqlGatewayException || failure instanceof SqlExecutionException;
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank()
                ? failure.getClass().getName()
                : message.strip();
    }
}
