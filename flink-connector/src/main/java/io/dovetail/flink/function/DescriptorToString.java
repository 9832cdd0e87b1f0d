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
package io.dovetail.flink.function;

import io.dovetail.table.format.blob.BlobDescriptor;

import org.apache.flink.table.functions.ScalarFunction;

/**
 * {@code sys.descriptor_to_string(descriptor)}: a serialized BLOB descriptor (as a {@code
 * 'blob-as-descriptor'} read returns) in readable form, {@code BlobDescriptor{version=2, uri='..',
 * offset=.., length=..}}.
 */
public class DescriptorToString extends ScalarFunction {

    public String eval(byte[] descriptor) {
        return descriptor == null ? null : BlobDescriptor.deserialize(descriptor).toString();
    }
}
